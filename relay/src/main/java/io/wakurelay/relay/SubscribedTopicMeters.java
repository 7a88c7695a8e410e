package io.wakurelay.relay;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.ToDoubleFunction;

/**
 * The meters of one topic this node relays, under nwaku's names and labels (docs/metrics.md, "Relay"): its relay
 * traffic, the payload sizes of its messages and, for a shard of this node's cluster, its peers. Registered when the
 * node joins the topic and removed when it leaves it, so the label values are this node's own topics, at most
 * {@code maxTopics} at a time. The router looks the holder up once per message by the topic it already has, and
 * recording is a few adds: no allocation, no decode.
 */
final class SubscribedTopicMeters implements TopicEvents {
    private final MeterRegistry registry;
    /** nwaku counts a message's relay traffic as its data plus its topic. */
    private final int topicBytes;
    private final LongAdder grossIn = new LongAdder();
    private final LongAdder netIn = new LongAdder();
    private final LongAdder netOut = new LongAdder();
    private final LongAdder messages = new LongAdder();
    private final LongAdder payloadBytes = new LongAdder();
    private final LongAccumulator largestPayload = new LongAccumulator(Math::max, 0);
    private final List<Meter> meters = new ArrayList<>();
    private final Runnable onLeave;

    /**
     * @param shard       the topic's shard when it is a static-sharding topic of this node's cluster
     * @param subscribers the connected peers subscribed to the topic, kept by the router
     * @param onLeave     run when the node leaves the topic
     */
    SubscribedTopicMeters(MeterRegistry registry, String topic, OptionalInt shard, AtomicInteger subscribers,
            Runnable onLeave) {
        this.registry = registry;
        this.onLeave = onLeave;
        this.topicBytes = topic.getBytes(StandardCharsets.UTF_8).length;
        traffic(topic, "gross", "in", grossIn);
        traffic(topic, "net", "in", netIn);
        traffic(topic, "net", "out", netOut);
        // nwaku labels these three "shard" but gives them the pubsub topic as value
        size("waku.relay.total.msg.bytes.per.shard", topic, "total length of messages seen per shard",
                m -> m.payloadBytes.sum());
        size("waku.relay.max.msg.bytes.per.shard", topic, "Maximum length of messages seen per shard",
                m -> m.largestPayload.get());
        size("waku.relay.avg.msg.bytes.per.shard", topic, "Average length of messages seen per shard",
                SubscribedTopicMeters::average);
        if (shard.isPresent()) {
            meters.add(Gauge.builder("waku.connected.peers.per.shard", subscribers, AtomicInteger::get)
                    .tag("shard", Integer.toString(shard.getAsInt()))
                    .description("Number of physical connections per shard").register(registry));
        }
    }

    private void traffic(String topic, String type, String direction, LongAdder bytes) {
        meters.add(FunctionCounter.builder("waku.relay.network.bytes", bytes, LongAdder::sum)
                .tags("topic", topic, "type", type, "direction", direction)
                .description("total traffic per topic, distinct gross/net and direction").register(registry));
    }

    private void size(String name, String topic, String description, ToDoubleFunction<SubscribedTopicMeters> value) {
        meters.add(Gauge.builder(name, this, value).tag("shard", topic).description(description)
                .strongReference(true).register(registry));
    }

    private double average() {
        long n = messages.sum();
        return n == 0 ? 0 : payloadBytes.sum() / (double) n;
    }

    /** A message on the topic arrived from a peer (every copy: duplicates and invalid ones too). */
    @Override
    public void received(int messageBytes) {
        grossIn.add(messageBytes + topicBytes);
    }

    /** A message from a peer passed dedup and validation. */
    @Override
    public void accepted(int messageBytes, int payloadSize) {
        netIn.add(messageBytes + topicBytes);
        seen(payloadSize);
    }

    /** This node published a message on the topic. */
    @Override
    public void published(int payloadSize) {
        seen(payloadSize);
    }

    /** A message went to {@code copies} peers. */
    @Override
    public void sent(int messageBytes, int copies) {
        if (copies > 0) {
            netOut.add((long) (messageBytes + topicBytes) * copies);
        }
    }

    private void seen(int payloadSize) {
        messages.increment();
        payloadBytes.add(payloadSize);
        largestPayload.accumulate(payloadSize);
    }

    /** The node left the topic: its series leave the registry. */
    @Override
    public void close() {
        meters.forEach(registry::remove);
        onLeave.run();
    }
}
