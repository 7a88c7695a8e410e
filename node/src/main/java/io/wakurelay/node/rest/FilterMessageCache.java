package io.wakurelay.node.rest;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Messages the filter service node pushed, for {@code GET /filter/v2/messages/{contentTopic}} (nwaku's filter
 * REST cache), each as its rendered JSON beside the pubsub topic it came on. A content topic has a cache from its
 * REST subscription until its unsubscription. Bounded as the relay's {@link TopicCache}: per content topic by count
 * (oldest dropped first), for all together by bytes, and in content topics by {@link TopicCache#MAX_CONTENT_TOPICS};
 * every drop is counted.
 */
public final class FilterMessageCache {
    private record Cached(String pubsubTopic, byte[] json) {
    }

    private final int capacity;
    private final long maxBytes;
    private final Map<String, ArrayDeque<Cached>> topics = new HashMap<>();
    private long bytes;
    private long messages;
    private long dropped;

    public FilterMessageCache(int capacity, long maxBytes) {
        this.capacity = capacity;
        this.maxBytes = maxBytes;
    }

    /** The cache of a REST API with {@code config}; holding nothing when it is off (null). */
    public static FilterMessageCache of(RestConfig config) {
        return config == null ? new FilterMessageCache(1, 0) : new FilterMessageCache(config.cacheCapacity(), config.cacheBytes());
    }

    /** Registers the cache's meters (docs/metrics.md). */
    public void bind(MeterRegistry registry) {
        Gauge.builder("waku.rest.filter.cache.messages", this, FilterMessageCache::size)
                .description("messages pushed by the filter service node held for GET /filter/v2/messages").register(registry);
        Gauge.builder("waku.rest.filter.cache.bytes", this, FilterMessageCache::bytes).baseUnit("bytes")
                .description("bytes of JSON held for GET /filter/v2/messages (bounded by --rest-relay-cache-size)").register(registry);
        FunctionCounter.builder("waku.rest.filter.cache.dropped", this, FilterMessageCache::dropped)
                .description("pushed messages dropped because a content topic's cache or the byte budget was full").register(registry);
    }

    /**
     * Opens the caches of {@code contentTopics}, unless that would pass {@link TopicCache#MAX_CONTENT_TOPICS}.
     *
     * @return false when nothing was opened
     */
    public synchronized boolean open(List<String> contentTopics) {
        long added = contentTopics.stream().distinct().filter(t -> !topics.containsKey(t)).count();
        if (topics.size() + added > TopicCache.MAX_CONTENT_TOPICS) {
            return false;
        }
        contentTopics.forEach(t -> topics.putIfAbsent(t, new ArrayDeque<>()));
        return true;
    }

    public synchronized void close(List<String> contentTopics) {
        for (String t : contentTopics) {
            ArrayDeque<Cached> queue = topics.remove(t);
            if (queue != null) {
                queue.forEach(this::forget);
            }
        }
    }

    /** Closes every cache (nwaku's {@code cache.reset()} after unsubscribing all). */
    public synchronized void clear() {
        topics.clear();
        bytes = 0;
        messages = 0;
    }

    public synchronized void add(String pubsubTopic, String contentTopic, byte[] json) {
        ArrayDeque<Cached> queue = topics.get(contentTopic);
        if (queue == null) {
            return;
        }
        if (queue.size() == capacity) {
            forget(queue.pollFirst());
            dropped++;
        }
        while (bytes + json.length > maxBytes && !queue.isEmpty()) {
            forget(queue.pollFirst());
            dropped++;
        }
        if (bytes + json.length > maxBytes) {
            dropped++; // other content topics hold the budget
            return;
        }
        queue.addLast(new Cached(pubsubTopic, json));
        bytes += json.length;
        messages++;
    }

    /**
     * Returns and forgets the cached messages of {@code contentTopic} (their JSON), oldest first; with a
     * {@code pubsubTopic}, only those that came on it (the others stay).
     *
     * @return null when the content topic is not subscribed
     */
    public synchronized List<byte[]> drain(String contentTopic, String pubsubTopic) {
        ArrayDeque<Cached> queue = topics.get(contentTopic);
        if (queue == null) {
            return null;
        }
        List<byte[]> out = new ArrayList<>();
        for (Iterator<Cached> it = queue.iterator(); it.hasNext(); ) {
            Cached c = it.next();
            if (pubsubTopic == null || pubsubTopic.equals(c.pubsubTopic())) {
                out.add(c.json());
                forget(c);
                it.remove();
            }
        }
        return out;
    }

    private void forget(Cached c) {
        bytes -= c.json().length;
        messages--;
    }

    public synchronized long size() {
        return messages;
    }

    public synchronized long bytes() {
        return bytes;
    }

    public synchronized long dropped() {
        return dropped;
    }
}
