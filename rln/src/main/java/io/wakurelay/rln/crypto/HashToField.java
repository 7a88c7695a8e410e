package io.wakurelay.rln.crypto;

import io.netty.buffer.ByteBuf;
import io.wakurelay.protocol.WakuMessageView;
import org.bouncycastle.crypto.digests.KeccakDigest;

import java.math.BigInteger;

/**
 * RLN's hash to field: H(b) = keccak-256(b) read as a little-endian integer, reduced mod r (zerokit's
 * {@code hash_to_field_le}). {@link #signal(WakuMessageView)} is the message's x:
 * H(payload ‖ content topic ‖ timestamp as u64 little-endian), fed to the digest from the message's own buffers.
 *
 * <p>Heap buffers are read in place; direct buffers (the network's) pass through a 4 KiB scratch array per thread,
 * because BouncyCastle's digest takes arrays only. Nothing of the payload is copied into a new array.
 */
public final class HashToField {
    private static final PerThread KECCAK = new PerThread();

    private HashToField() {
    }

    /** H of an array. */
    public static FieldElement hash(byte[] bytes) {
        Keccak k = KECCAK.start();
        k.digest.update(bytes, 0, bytes.length);
        return k.finish();
    }

    /** H of a buffer's readable bytes; its indexes are not moved. */
    public static FieldElement hash(ByteBuf bytes) {
        Keccak k = KECCAK.start();
        k.update(bytes);
        return k.finish();
    }

    /**
     * The RLN signal's hash, x: H(payload ‖ content topic (UTF-8) ‖ timestamp (ns) as u64 little-endian). An absent
     * timestamp counts as 0, as nwaku's {@code toRLNSignal} does.
     */
    public static FieldElement signal(WakuMessageView message) {
        Keccak k = KECCAK.start();
        k.update(message.payload());
        k.update(message.contentTopicBytes());
        long ts = message.timestamp();
        for (int i = 0; i < 8; i++) {
            k.digest.update((byte) (ts >>> (8 * i)));
        }
        return k.finish();
    }

    /** keccak-256 of an array (tests and tools). */
    public static byte[] keccak256(byte[] bytes) {
        KeccakDigest digest = new KeccakDigest(256);
        digest.update(bytes, 0, bytes.length);
        byte[] out = new byte[32];
        digest.doFinal(out, 0);
        return out;
    }

    /** Reads 32 bytes as a little-endian integer and reduces it mod r. */
    static FieldElement fromDigest(byte[] digest) {
        byte[] be = new byte[33];
        for (int i = 0; i < 32; i++) {
            be[32 - i] = digest[i];
        }
        return FieldElement.of(new BigInteger(be).mod(PrimeField.SCALAR.modulus()));
    }

    /** Each thread's digest, reset before each use: a hash cut short by an exception leaves nothing behind. */
    private static final class PerThread extends ThreadLocal<Keccak> {
        @Override
        protected Keccak initialValue() {
            return new Keccak();
        }

        Keccak start() {
            Keccak k = get();
            k.digest.reset();
            return k;
        }
    }

    /** One digest per thread, with its scratch and output arrays. */
    private static final class Keccak {
        final KeccakDigest digest = new KeccakDigest(256);
        final byte[] scratch = new byte[4096];
        final byte[] out = new byte[32];

        void update(ByteBuf bytes) {
            int index = bytes.readerIndex();
            int length = bytes.readableBytes();
            if (bytes.hasArray()) {
                digest.update(bytes.array(), bytes.arrayOffset() + index, length);
                return;
            }
            while (length > 0) {
                int n = Math.min(length, scratch.length);
                bytes.getBytes(index, scratch, 0, n);
                digest.update(scratch, 0, n);
                index += n;
                length -= n;
            }
        }

        FieldElement finish() {
            digest.doFinal(out, 0); // also resets the digest
            return fromDigest(out);
        }
    }
}
