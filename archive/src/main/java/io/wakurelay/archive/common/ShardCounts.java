package io.wakurelay.archive.common;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.wakurelay.protocol.Topics;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * nwaku's {@code waku_archive_messages_per_shard{shard}}: messages stored since the archive opened, by the shard of
 * their pubsub topic (0 for a named topic, as nwaku counts it). The label values are shard numbers (at most 65,536
 * of them); the topics are those the relay accepted, this node's own. Each message is counted through a map keyed
 * by its topic, so a message costs one look-up; the map keeps at most {@value #MAX_CACHED_TOPICS} topics, and a
 * topic past that is parsed again for each of its messages.
 */
public final class ShardCounts implements AutoCloseable {
    static final int MAX_CACHED_TOPICS = 1024;

    private final MeterRegistry registry;
    private final Map<String, AtomicLong> byTopic = new ConcurrentHashMap<>();
    private final Map<Integer, AtomicLong> byShard = new ConcurrentHashMap<>();
    private final List<Meter> meters = new ArrayList<>();
    private boolean closed; // guarded by meters

    ShardCounts(MeterRegistry registry) {
        this.registry = registry;
    }

    /** Registers the count of {@code pubsubTopic}'s shard at 0, so that a dashboard shows 0 rather than no data. */
    public void expect(String pubsubTopic) {
        of(pubsubTopic);
    }

    /** A message of {@code pubsubTopic} was stored (its batch committed). */
    public void stored(String pubsubTopic) {
        of(pubsubTopic).incrementAndGet();
    }

    private AtomicLong of(String pubsubTopic) {
        AtomicLong count = byTopic.get(pubsubTopic);
        if (count != null) {
            return count;
        }
        count = byShard.computeIfAbsent(Topics.shardOf(pubsubTopic).orElse(0), this::register);
        if (byTopic.size() < MAX_CACHED_TOPICS) {
            byTopic.put(pubsubTopic, count);
        }
        return count;
    }

    private AtomicLong register(int shard) {
        AtomicLong count = new AtomicLong();
        synchronized (meters) {
            if (!closed) {
                meters.add(Gauge.builder("waku.archive.messages.per.shard", count, AtomicLong::get)
                        .tag("shard", Integer.toString(shard)).description("number of historical messages per shard")
                        .register(registry));
            }
        }
        return count;
    }

    @Override
    public void close() {
        synchronized (meters) {
            closed = true;
            meters.forEach(registry::remove);
        }
    }
}
