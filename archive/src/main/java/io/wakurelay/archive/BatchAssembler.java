package io.wakurelay.archive;

import io.netty.buffer.ByteBuf;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.MessageHash;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Turns envelopes into one WriteBatch: skips ephemeral messages and duplicates (within the batch and against
 * the database: the first copy wins), and writes for each new message its bytes as received plus the four
 * index entries and the counter deltas. Used by the writer thread only.
 */
final class BatchAssembler {
    /** What a staged batch will store once committed. */
    record Staged(List<MessageHash> stored, int duplicates, int ephemeralSkipped, long storedBytes) {
    }

    private final RocksDB db;
    private final ArchiveCounters counters;
    private final MessageFamilies families;
    /** RocksJava's ByteBuffer put needs a direct key too; the batch copies it, so one buffer is reused. */
    private final ByteBuffer directKey = ByteBuffer.allocateDirect(Keys.TAIL_BYTES);
    /** Where a message that arrived in several buffers is gathered for RocksDB; grown and reused (see gather). */
    private ByteBuffer assembly;
    /** The pubsub topic of each message the last staged batch stores, for the per-shard counts; reused. */
    private final List<String> storedTopics = new ArrayList<>();

    BatchAssembler(ArchiveDatabase database, ArchiveCounters counters) {
        this.db = database.db();
        this.counters = counters;
        this.families = MessageFamilies.of(database);
    }

    Staged stage(List<Envelope> envelopes, WriteBatch batch) throws RocksDBException {
        List<MessageHash> stored = new ArrayList<>(envelopes.size());
        storedTopics.clear();
        Set<MessageHash> inBatch = new HashSet<>();
        int duplicates = 0;
        int ephemeral = 0;
        long bytes = 0;
        for (Envelope envelope : envelopes) {
            if (envelope.ephemeral()) {
                ephemeral++;
                continue;
            }
            MessageHash hash = envelope.hash();
            byte[] hashBytes = hash.toByteArray();
            if (!inBatch.add(hash) || isStored(hashBytes)) {
                duplicates++;
                continue;
            }
            stageMessage(envelope, hashBytes, batch);
            stored.add(hash);
            storedTopics.add(envelope.pubsubTopic());
            bytes += envelope.messageSize();
        }
        if (!stored.isEmpty()) {
            counters.stage(batch, stored.size(), bytes);
        }
        return new Staged(stored, duplicates, ephemeral, bytes);
    }

    /** The pubsub topics of the messages the last {@link #stage} stores, in order; valid until the next stage. */
    List<String> storedTopics() {
        return storedTopics;
    }

    /**
     * {@code bytes} copied into {@link #assembly}, which grows to the largest message seen (at most the relay's
     * largest RPC) and is reused: only the writer thread stages messages.
     */
    private ByteBuffer gather(ByteBuf bytes) {
        int size = bytes.readableBytes();
        if (assembly == null || assembly.capacity() < size) {
            assembly = ByteBuffer.allocateDirect(Math.max(size, 64 * 1024));
        }
        assembly.clear().limit(size);
        bytes.getBytes(bytes.readerIndex(), assembly);
        return assembly.flip();
    }

    private boolean isStored(byte[] hash) throws RocksDBException {
        // the bloom filter answers most misses without reading a block
        return db.keyMayExist(families.messageInfo(), hash, null) && db.get(families.messageInfo(), hash) != null;
    }

    private void stageMessage(Envelope envelope, byte[] hash, WriteBatch batch) throws RocksDBException {
        long timestamp = envelope.indexTimestamp();
        byte[] pubsubTopic = Keys.utf8(envelope.pubsubTopic());
        byte[] contentTopic = Keys.utf8(envelope.message().contentTopic());
        byte[] tail = Keys.tail(timestamp, hash);

        ByteBuf bytes = envelope.messageBytes();
        if (bytes.isDirect() && bytes.nioBufferCount() == 1) {
            directKey.clear();
            directKey.put(tail).flip();
            batch.put(families.messages(), directKey, bytes.nioBuffer());
        } else {
            // a message that spans several received buffers (every message over one Noise frame, 65,535 bytes, is
            // a composite of them) is gathered into one reused direct buffer: RocksDB takes one contiguous value,
            // and a new array per message was 73 KB of garbage per message of the default mix
            ByteBuffer gathered = gather(bytes);
            directKey.clear();
            directKey.put(tail).flip();
            batch.put(families.messages(), directKey, gathered);
        }
        batch.put(families.messageInfo(), hash, Keys.infoValue(timestamp, pubsubTopic));
        batch.put(families.byTime(), tail, Keys.timeValue(envelope.messageSize(), pubsubTopic, contentTopic));
        byte[] pubsubPrefix = Keys.pubsubPrefix(envelope.pubsubTopic());
        batch.put(families.byPubsub(), Keys.concat(pubsubPrefix, tail), Keys.EMPTY);
        batch.put(families.byContent(), Keys.concat(Keys.contentPrefix(pubsubTopic, contentTopic), tail), Keys.EMPTY);
    }
}
