package io.wakurelay.archive.rocksdb;

import io.netty.buffer.ByteBuf;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.MessageHash;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
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

    /** Distinct (pubsub topic, content topic) pairs whose byte forms are kept; past it the cache starts again. */
    static final int MAX_CACHED_TOPIC_PAIRS = 1024;

    private final RocksDB db;
    private final ArchiveCounters counters;
    private final MessageFamilies families;
    // RocksJava's ByteBuffer put takes direct buffers only and copies them into the batch, so each is reused; a
    // message that arrived in several buffers is gathered into one (see stageMessage)
    private final DirectScratch keyScratch = new DirectScratch(256);
    private final DirectScratch valueScratch = new DirectScratch(256);
    private final DirectScratch assembly = new DirectScratch(64 * 1024);
    private final ByteBuffer emptyValue = ByteBuffer.allocateDirect(0);
    /** pubsub topic → content topic → their byte forms: a node sees few pairs, and every message needs them. */
    private final Map<String, Map<String, TopicBytes>> topicBytes = new HashMap<>();
    private int cachedTopicPairs;
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

    private boolean isStored(byte[] hash) throws RocksDBException {
        // the bloom filter answers most misses without reading a block
        return db.keyMayExist(families.messageInfo(), hash, null) && db.get(families.messageInfo(), hash) != null;
    }

    /**
     * Puts the message and its four index entries into {@code batch}, with the layouts of {@link Keys}. Keys and values
     * are composed in reused direct buffers, and the topics' byte forms come from {@link #topicBytes}, so that staging
     * a message allocates nearly nothing (docs/benchmarks.md, "Allocation on the write path").
     */
    private void stageMessage(Envelope envelope, byte[] hash, WriteBatch batch) throws RocksDBException {
        long timestamp = envelope.indexTimestamp();
        TopicBytes topics = topicBytes(envelope.pubsubTopic(), envelope.message().contentTopic());

        ByteBuf bytes = envelope.messageBytes();
        // a message that spans several received buffers (every message over one Noise frame, 65,535 bytes, is a
        // composite of them) is gathered into one reused direct buffer: RocksDB takes one contiguous value
        ByteBuffer message = bytes.isDirect() && bytes.nioBufferCount() == 1 ? bytes.nioBuffer() : gather(bytes);
        batch.put(families.messages(), indexKey(Keys.EMPTY, timestamp, hash), message);
        batch.put(families.messageInfo(), keyScratch.take(hash.length).put(hash).flip(),
                valueScratch.take(Keys.TIMESTAMP_BYTES + topics.pubsubTopic().length)
                        .putLong(Keys.orderedTimestamp(timestamp)).put(topics.pubsubTopic()).flip());
        batch.put(families.byTime(), indexKey(Keys.EMPTY, timestamp, hash),
                valueScratch.take(Integer.BYTES + topics.bothTopics().length)
                        .putInt(envelope.messageSize()).put(topics.bothTopics()).flip());
        batch.put(families.byPubsub(), indexKey(topics.pubsubPrefix(), timestamp, hash), emptyValue);
        batch.put(families.byContent(), indexKey(topics.contentPrefix(), timestamp, hash), emptyValue);
    }

    /** {@code prefix ‖ tail(timestamp, hash)} in the key scratch buffer. */
    private ByteBuffer indexKey(byte[] prefix, long timestamp, byte[] hash) {
        return keyScratch.take(prefix.length + Keys.TAIL_BYTES)
                .put(prefix).putLong(Keys.orderedTimestamp(timestamp)).put(hash).flip();
    }

    private ByteBuffer gather(ByteBuf bytes) {
        ByteBuffer target = assembly.take(bytes.readableBytes());
        bytes.getBytes(bytes.readerIndex(), target);
        return target.flip();
    }

    private TopicBytes topicBytes(String pubsubTopic, String contentTopic) {
        Map<String, TopicBytes> byContent = topicBytes.get(pubsubTopic);
        TopicBytes known = byContent == null ? null : byContent.get(contentTopic);
        if (known != null) {
            return known;
        }
        if (cachedTopicPairs >= MAX_CACHED_TOPIC_PAIRS) {
            topicBytes.clear();
            cachedTopicPairs = 0;
        }
        TopicBytes computed = TopicBytes.of(pubsubTopic, contentTopic);
        topicBytes.computeIfAbsent(pubsubTopic, t -> new HashMap<>()).put(contentTopic, computed);
        cachedTopicPairs++;
        return computed;
    }

    /** The byte forms of a (pubsub topic, content topic) pair in the keys and values of {@link Keys}. */
    record TopicBytes(byte[] pubsubTopic, byte[] bothTopics, byte[] pubsubPrefix, byte[] contentPrefix) {
        static TopicBytes of(String pubsubTopic, String contentTopic) {
            byte[] pubsub = Keys.utf8(pubsubTopic);
            byte[] content = Keys.utf8(contentTopic);
            byte[] contentPrefix = Keys.contentPrefix(pubsub, content);
            // the by_time value after its size: pubsub topic NUL content topic, the content prefix without its last NUL
            byte[] both = Arrays.copyOf(contentPrefix, contentPrefix.length - 1);
            return new TopicBytes(pubsub, both, Keys.pubsubPrefix(pubsubTopic), contentPrefix);
        }
    }

    /** A direct buffer reused for every value it holds, grown to the largest asked for. */
    private static final class DirectScratch {
        private ByteBuffer buffer;

        DirectScratch(int initialCapacity) {
            buffer = ByteBuffer.allocateDirect(initialCapacity);
        }

        /** The buffer, cleared, limited to {@code size} bytes. */
        ByteBuffer take(int size) {
            if (buffer.capacity() < size) {
                buffer = ByteBuffer.allocateDirect(Math.max(size, 2 * buffer.capacity()));
            }
            return buffer.clear().limit(size);
        }
    }
}
