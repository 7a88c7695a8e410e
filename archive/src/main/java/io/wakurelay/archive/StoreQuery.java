package io.wakurelay.archive;

import io.wakurelay.protocol.MessageHash;
import io.wakurelay.protocol.ProtocolViolation;
import io.wakurelay.protocol.Topics;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;

/**
 * A Store v3 query. Three kinds, as in Store v3:
 * <ul>
 *   <li>by topics: a pubsub topic and 0..10 content topics, or 1..10 content topics on any pubsub topic (nwaku's
 *   archive answers these too, though Store v3 asks for a pubsub topic with them);</li>
 *   <li>by hashes: 1..100 message hashes, narrowed by topics when they are given too (as nwaku's drivers, which
 *   join every filter with AND);</li>
 *   <li>by time: neither, every message.</li>
 * </ul>
 * Each kind may be narrowed by {@code startTime}/{@code endTime} (Unix ns, both inclusive). Results are ordered by
 * (timestamp, hash); {@code ascending=false} pages backward from the newest. {@code cursor} is the
 * {@link StoreResponse#paginationCursor()} of the previous page. Page size: 0 means the default 20, more than 100
 * is clamped to 100 (as nwaku), negative is refused. The constructor throws {@link InvalidQueryException}, saying
 * what is wrong.
 */
public record StoreQuery(String pubsubTopic, List<String> contentTopics, List<MessageHash> hashes,
                         Long startTime, Long endTime, MessageHash cursor, int pageSize, boolean ascending,
                         boolean includeData) {
    public static final int DEFAULT_PAGE_SIZE = 20;
    public static final int MAX_PAGE_SIZE = 100;
    public static final int MAX_CONTENT_TOPICS = 10;
    public static final int MAX_HASHES = 100;
    /**
     * Topics are checked with the protocol's format rules (which keep NUL, the key separator, out) but with a
     * generous length, so that a node configured for longer topics can still query them.
     */
    private static final int TOPIC_BYTES_LIMIT = 4096;

    /** The kind of a query, also the {@code kind} tag of the query latency metric. */
    public enum Kind {
        TOPICS, HASHES, TIME;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public StoreQuery {
        pubsubTopic = pubsubTopic == null || pubsubTopic.isEmpty() ? null : pubsubTopic;
        contentTopics = distinct(contentTopics, "contentTopics");
        hashes = distinct(hashes, "hashes");
        if (pubsubTopic != null) {
            String topic = pubsubTopic;
            checkTopic(() -> Topics.checkPubsubTopic(topic, TOPIC_BYTES_LIMIT), "pubsubTopic");
        }
        for (String contentTopic : contentTopics) {
            checkTopic(() -> Topics.checkContentTopic(contentTopic, TOPIC_BYTES_LIMIT), "contentTopics");
        }
        if (contentTopics.size() > MAX_CONTENT_TOPICS) {
            throw new InvalidQueryException("at most " + MAX_CONTENT_TOPICS + " contentTopics per query, got " + contentTopics.size());
        }
        if (hashes.size() > MAX_HASHES) {
            throw new InvalidQueryException("at most " + MAX_HASHES + " hashes per query, got " + hashes.size());
        }
        if (startTime != null && endTime != null && startTime > endTime) {
            throw new InvalidQueryException("startTime " + startTime + " is after endTime " + endTime);
        }
        if (pageSize < 0) {
            throw new InvalidQueryException("pageSize must not be negative, was " + pageSize);
        }
        pageSize = pageSize == 0 ? DEFAULT_PAGE_SIZE : Math.min(pageSize, MAX_PAGE_SIZE);
    }

    public Kind kind() {
        if (!hashes.isEmpty()) {
            return Kind.HASHES;
        }
        return pubsubTopic != null || !contentTopics.isEmpty() ? Kind.TOPICS : Kind.TIME;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder with Store v3's defaults: page size 20, ascending, without data. */
    public Builder toBuilder() {
        return new Builder().pubsubTopic(pubsubTopic).contentTopics(contentTopics).hashes(hashes)
                .startTime(startTime).endTime(endTime).cursor(cursor).pageSize(pageSize)
                .ascending(ascending).includeData(includeData);
    }

    /** The same query continued after {@code nextCursor}. */
    public StoreQuery withCursor(MessageHash nextCursor) {
        return toBuilder().cursor(nextCursor).build();
    }

    private static <T> List<T> distinct(List<T> values, String name) {
        if (values == null) {
            return List.of();
        }
        LinkedHashSet<T> set = new LinkedHashSet<>();
        for (T value : values) {
            if (value == null) {
                throw new InvalidQueryException(name + " must not contain null");
            }
            set.add(value);
        }
        return List.copyOf(set);
    }

    private static void checkTopic(Runnable check, String name) {
        try {
            check.run();
        } catch (ProtocolViolation e) {
            throw new InvalidQueryException(name + ": " + e.getMessage());
        }
    }

    public static final class Builder {
        private String pubsubTopic;
        private List<String> contentTopics = new ArrayList<>();
        private List<MessageHash> hashes = new ArrayList<>();
        private Long startTime;
        private Long endTime;
        private MessageHash cursor;
        private int pageSize = DEFAULT_PAGE_SIZE;
        private boolean ascending = true;
        private boolean includeData;

        private Builder() {
        }

        public Builder pubsubTopic(String topic) {
            this.pubsubTopic = topic;
            return this;
        }

        public Builder contentTopics(List<String> topics) {
            this.contentTopics = new ArrayList<>(topics);
            return this;
        }

        public Builder contentTopics(String... topics) {
            return contentTopics(List.of(topics));
        }

        public Builder hashes(List<MessageHash> messageHashes) {
            this.hashes = new ArrayList<>(messageHashes);
            return this;
        }

        public Builder hashes(MessageHash... messageHashes) {
            return hashes(List.of(messageHashes));
        }

        public Builder startTime(Long nanos) {
            this.startTime = nanos;
            return this;
        }

        public Builder endTime(Long nanos) {
            this.endTime = nanos;
            return this;
        }

        public Builder cursor(MessageHash hash) {
            this.cursor = hash;
            return this;
        }

        public Builder pageSize(int size) {
            this.pageSize = size;
            return this;
        }

        public Builder ascending(boolean forward) {
            this.ascending = forward;
            return this;
        }

        public Builder includeData(boolean data) {
            this.includeData = data;
            return this;
        }

        /** @throws InvalidQueryException saying what is wrong */
        public StoreQuery build() {
            return new StoreQuery(pubsubTopic, contentTopics, hashes, startTime, endTime, cursor, pageSize, ascending, includeData);
        }
    }
}
