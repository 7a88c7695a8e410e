package io.wakurelay.relay;

import io.netty.buffer.ByteBuf;
import io.wakurelay.protocol.PathCounters;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.zip.CRC32C;

/**
 * How the router learns a copy's message id. The id is the SHA-256 of the copy's WakuMessage bytes, and most copies a
 * node in a mesh receives are duplicates (3.3 per node and message in {@code loadgen mesh} with nwaku's D = 6), each
 * hashed in full only to be dropped: 41 µs for the default mix's 65 kB (docs/benchmarks.md). So the router also
 * remembers, for each message it relayed lately, a fingerprint of its Message bytes (CRC32C, a JDK intrinsic, and
 * length), and a copy with a known fingerprint is compared byte for byte with the message the message cache holds:
 * if every byte is equal, so is the SHA-256 of its data, and the cached message's id is the copy's. A fingerprint
 * only nominates a candidate, so a crafted collision costs the sender's victim one comparison and then the SHA-256 it
 * would have computed anyway; it never makes two different messages one.
 *
 * <p>The fingerprints are a fixed table of {@value #SLOTS} slots, each the latest fingerprint that maps to it (a
 * newer one takes an older one's slot): bounded by construction, and a message gone from the slot, or from the
 * message cache, is hashed as before. The table is guarded by the router's lock; the hashing and fingerprinting are
 * not, and run on the event loop of the connection a copy came on.
 */
final class MessageIds {
    /** Fingerprint slots: about three seconds of messages at 1,400 a second. */
    static final int SLOTS = 4096;

    private final PathCounters counters;
    private final RouterEvents events;
    private final ThreadLocal<MessageDigest> sha256 = ThreadLocal.withInitial(MessageIds::newSha256);
    private final Object routerLock;
    private final MessageCache cache; // guarded by routerLock
    private final long[] fingerprints = new long[SLOTS]; // guarded by routerLock
    private final MessageId[] ids = new MessageId[SLOTS];

    /**
     * @param cache      the router's message cache, where a remembered message's bytes are found
     * @param routerLock the router, whose lock guards the cache and these fingerprints
     */
    MessageIds(PathCounters counters, RouterEvents events, MessageCache cache, Object routerLock) {
        this.counters = counters;
        this.events = events;
        this.cache = cache;
        this.routerLock = routerLock;
    }

    /**
     * The id of a copy that arrived, whose Message bytes have {@code fingerprint}: the cached message's when the copy's
     * bytes are that message's, else the SHA-256 of its data. Takes the router's lock briefly to find the cached
     * message and keep a reference to it; compares and hashes outside it.
     */
    MessageId ofCopy(RpcReader.Message copy, long fingerprint) {
        MessageId candidate;
        ByteBuf cached = null;
        synchronized (routerLock) {
            candidate = candidate(fingerprint);
            MessageCache.Entry entry = candidate == null ? null : cache.get(candidate);
            if (entry != null) {
                cached = entry.rpc.retainedDuplicate();
            }
        }
        if (cached != null) {
            try {
                if (endsWith(cached, copy.message())) {
                    events.idByBytes();
                    return candidate;
                }
            } finally {
                cached.release();
            }
        }
        return sha256(copy.data());
    }

    /** The id of a message whose WakuMessage bytes are {@code data}: their SHA-256 (nwaku's {@code message_id.nim}). */
    MessageId sha256(ByteBuf data) {
        MessageDigest digest = sha256.get();
        for (ByteBuffer part : data.nioBuffers()) {
            digest.update(part);
        }
        counters.messageIdComputed();
        return new MessageId(digest.digest());
    }

    /** The fingerprint of a Message as received: its CRC32C in the high 32 bits, its length in the low. */
    static long fingerprint(ByteBuf message) {
        CRC32C crc = new CRC32C();
        for (ByteBuffer part : message.nioBuffers()) {
            crc.update(part);
        }
        return crc.getValue() << 32 | message.readableBytes();
    }

    /** The id of the latest message remembered with {@code fingerprint}, or null. Under the router's lock. */
    private MessageId candidate(long fingerprint) {
        int slot = slot(fingerprint);
        MessageId id = ids[slot];
        return id != null && fingerprints[slot] == fingerprint ? id : null;
    }

    /** Remembers that the message with {@code fingerprint} has {@code id}. Under the router's lock. */
    void remember(long fingerprint, MessageId id) {
        int slot = slot(fingerprint);
        fingerprints[slot] = fingerprint;
        ids[slot] = id;
    }

    /**
     * Whether the last {@code message.readableBytes()} bytes of {@code rpc} (a cached forwarding RPC: a header, then
     * the Message) are {@code message}'s bytes; neither buffer's indexes move.
     */
    static boolean endsWith(ByteBuf rpc, ByteBuf message) {
        int length = message.readableBytes();
        int start = rpc.readableBytes() - length;
        return start >= 0 && sameBytes(rpc.slice(rpc.readerIndex() + start, length), message);
    }

    /** Whether two buffers hold the same bytes, compared piece by piece with the JDK's vectorised mismatch. */
    static boolean sameBytes(ByteBuf a, ByteBuf b) {
        int length = a.readableBytes();
        if (length != b.readableBytes()) {
            return false;
        }
        ByteBuffer[] as = a.nioBuffers();
        ByteBuffer[] bs = b.nioBuffers();
        int i = 0;
        int j = 0;
        for (int compared = 0; compared < length; ) {
            while (!as[i].hasRemaining()) {
                i++;
            }
            while (!bs[j].hasRemaining()) {
                j++;
            }
            ByteBuffer x = as[i];
            ByteBuffer y = bs[j];
            int n = Math.min(x.remaining(), y.remaining());
            if (x.slice(x.position(), n).mismatch(y.slice(y.position(), n)) != -1) {
                return false;
            }
            x.position(x.position() + n);
            y.position(y.position() + n);
            compared += n;
        }
        return true;
    }

    private static int slot(long fingerprint) {
        return (int) ((fingerprint * 0x9E3779B97F4A7C15L) >>> 52); // the top 12 bits: 4,096 slots
    }

    private static MessageDigest newSha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform provides SHA-256", e);
        }
    }
}
