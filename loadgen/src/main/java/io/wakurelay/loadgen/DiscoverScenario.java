package io.wakurelay.loadgen;

import com.google.protobuf.ByteString;
import io.micrometer.core.instrument.Counter;
import io.wakurelay.discovery.discv5.Discv5DiscoveryConfig;
import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.node.WakuNode;
import io.wakurelay.node.config.DurationText;
import io.wakurelay.node.config.NodeConfig;
import io.wakurelay.protocol.MessageHash;
import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.relay.GossipParams;

import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Discovery at scale: {@code n} relay nodes in this JVM, node {@code i} on {@code 127.0.0.(i+2)} (an address each, as
 * hosts of a network have: discv5's and the host's per-address limits apply as they would), with discv5 on and
 * nothing else to start from than node 0's {@code enrUri} as their one {@code --discv5-bootstrap-node}: no static
 * peers, no peer exchange node. The clock starts before node 0 starts; every 50 ms the scenario reads each node's relay
 * peers and gossipsub mesh of the topic, and notes when every node first had a relay peer, a mesh peer, when the
 * union of the meshes first connected all nodes, when every node's mesh first held {@link GossipParams#dLo()} peers
 * (or all the others, in a network smaller than that: {@link DiscoverRun#meshTarget}) and when every node was first
 * connected to every other. Then {@code count} messages, each published through the relay of a node drawn at random
 * (seeded), at {@code rate} per second: a message counts when every node has it; its latency runs from the publish
 * call until the last node got it.
 */
final class DiscoverScenario {
    static final Duration POLL = Duration.ofMillis(50);
    static final String CONTENT_TOPIC = "/loadgen/1/discover/proto";

    private DiscoverScenario() {
    }

    /** What the run was given: everything its output states beside what it measured. */
    record Params(int nodes, Duration lookupInterval, Duration timeout, int count, int payloadBytes, double rate,
                  long seed, String pubsubTopic, Duration settle) {
    }

    static ResultRow run(Params p, Path dir, PrintStream err) {
        List<WakuNode> nodes = new ArrayList<>();
        try {
            long t0 = System.nanoTime();
            Discv5DiscoveryConfig discv5 = Discv5DiscoveryConfig.DEFAULTS.toBuilder().enabled(true).udpPort(0)
                    .lookupInterval(p.lookupInterval()).build();
            nodes.add(WakuNode.start(config(dir, 0, p.pubsubTopic(), discv5)));
            // what an operator hands out: node 0's record as /debug/v1/info shows it, parsed as the flag parses it
            String bootstrap = nodes.get(0).enrUri();
            Discv5DiscoveryConfig fromBootstrap = discv5.toBuilder().bootstrap(List.of(Enr.parse(bootstrap))).build();
            for (int i = 1; i < p.nodes(); i++) {
                nodes.add(WakuNode.start(config(dir, i, p.pubsubTopic(), fromBootstrap)));
            }
            long started = System.nanoTime() - t0;
            err.printf("discover: %d nodes started in %d ms, each given only node 0's ENR; lookups every %s%n",
                    p.nodes(), started / 1_000_000, DurationText.format(p.lookupInterval()));
            DiscoverRun run = new DiscoverRun(nodes, p.pubsubTopic(), t0);
            run.awaitFormed(p.timeout(), POLL, err);
            Map<String, Object> extras = new LinkedHashMap<>();
            extras.put("nodes", p.nodes());
            extras.put("bootstrap", "node 0's enrUri only (--discv5-bootstrap-node), no static peers");
            extras.put("addresses", "127.0.0.2.." + address(p.nodes() - 1));
            extras.put("lookup_interval_ms", p.lookupInterval().toMillis());
            extras.put("heartbeat_ms", nodes.get(0).config().relay().gossip().heartbeat().toMillis());
            extras.put("d", nodes.get(0).config().relay().gossip().d());
            extras.put("d_low", nodes.get(0).config().relay().gossip().dLo());
            extras.put("mesh_target", run.meshTarget);
            extras.put("max_connections", nodes.get(0).config().host().maxConnections());
            extras.put("timeout_ms", p.timeout().toMillis());
            extras.put("started_ms", started / 1_000_000);
            extras.putAll(run.milestones());
            extras.putAll(run.degrees());
            extras.put("lookups_per_node", round1(sum(nodes, "waku.discv5.lookups") / p.nodes()));
            return publish(p, nodes, extras, err);
        } finally {
            nodes.forEach(WakuNode::close);
        }
    }

    /** Node {@code index}'s config: the in-process defaults on its own loopback address, with {@code discv5}. */
    static NodeConfig config(Path dir, int index, String topic, Discv5DiscoveryConfig discv5) {
        NodeConfig base = InProcessNodes.config(dir.resolve("node-" + index), null, "", topic, List.of(), false);
        return base.toBuilder()
                .host(base.host().toBuilder().listenAddress(new InetSocketAddress(address(index), 0)).build())
                .discovery(base.discovery().toBuilder().discv5(discv5).build()).build();
    }

    static String address(int index) {
        if (index > 250) {
            throw new IllegalArgumentException("at most 251 nodes, one per address 127.0.0.2..127.0.0.252");
        }
        return "127.0.0." + (index + 2);
    }

    private static ResultRow publish(Params p, List<WakuNode> nodes, Map<String, Object> extras, PrintStream err) {
        int n = nodes.size();
        // per message: receipts and the last one's time (the map holds at most count entries: only ours are relayed)
        Map<MessageHash, long[]> receipts = new ConcurrentHashMap<>();
        AtomicLong received = new AtomicLong();
        List<AutoCloseable> taps = new ArrayList<>();
        for (WakuNode node : nodes) {
            taps.add(node.tap(e -> {
                long now = System.nanoTime();
                received.incrementAndGet();
                receipts.compute(e.hash(), (h, r) -> r == null ? new long[] {1, now} : new long[] {r[0] + 1, now});
            }));
        }
        SplittableRandom random = new SplittableRandom(p.seed());
        MessageHash[] hashes = new MessageHash[p.count()];
        long[] publishedAt = new long[p.count()];
        long periodNanos = Math.round(1e9 / p.rate());
        Measurement m = Measurement.ofNodes("discover", p.count(), nodes.stream().map(WakuNode::counters).toList(),
                (long) n * p.count());
        try {
            try (Progress progress = m.progress("discover", () -> complete(receipts, n), err)) {
                long next = System.nanoTime();
                for (int i = 0; i < p.count(); i++) {
                    long wait = next - System.nanoTime();
                    if (wait > 0) {
                        InProcessNodes.sleep(TimeUnit.NANOSECONDS.toMillis(wait));
                    }
                    next += periodNanos;
                    WakuNode from = nodes.get(random.nextInt(n));
                    byte[] payload = new byte[p.payloadBytes()];
                    random.nextBytes(payload);
                    WakuMessage message = WakuMessage.newBuilder().setPayload(ByteString.copyFrom(payload))
                            .setContentTopic(CONTENT_TOPIC).setTimestamp(WakuNode.nowNanos()).build();
                    publishedAt[i] = System.nanoTime();
                    hashes[i] = from.relay().publish(p.pubsubTopic(), message).block().hash();
                }
                long deadline = System.nanoTime() + p.settle().toNanos();
                while (complete(receipts, n) < p.count() && System.nanoTime() < deadline) {
                    InProcessNodes.sleep(POLL.toMillis());
                }
            }
            Latencies latencies = new Latencies(p.count());
            long last = m.startNanos;
            int missing = 0;
            for (int i = 0; i < p.count(); i++) {
                long[] r = receipts.get(hashes[i]);
                if (r != null && r[0] >= n) {
                    latencies.add(r[1] - publishedAt[i]);
                    last = Math.max(last, r[1]);
                } else {
                    missing++;
                }
            }
            extras.put("rate", p.rate());
            extras.put("payload_bytes", p.payloadBytes());
            extras.put("seed", p.seed());
            extras.put("delivered", received.get());
            extras.put("expected", (long) n * p.count());
            extras.put("delivery_ratio", round3(received.get() / ((double) n * p.count())));
            err.printf("discover: %d of %d messages reached all %d nodes (%d of %d receipts)%n", p.count() - missing,
                    p.count(), n, received.get(), (long) n * p.count());
            return m.finish(last, latencies, (long) p.payloadBytes() * p.count(), missing, extras);
        } finally {
            for (AutoCloseable tap : taps) {
                try {
                    tap.close();
                } catch (Exception ignored) {
                    // a tap's close only removes a listener
                }
            }
        }
    }

    /** Messages every node has. */
    private static long complete(Map<MessageHash, long[]> receipts, int n) {
        return receipts.values().stream().filter(r -> r[0] >= n).count();
    }

    private static double sum(List<WakuNode> nodes, String counter) {
        double sum = 0;
        for (WakuNode node : nodes) {
            Counter c = node.metrics().registry().find(counter).counter();
            sum += c == null ? 0 : c.count();
        }
        return sum;
    }

    private static double round1(double v) {
        return Math.round(v * 10) / 10.0;
    }

    private static double round3(double v) {
        return Math.round(v * 1000) / 1000.0;
    }
}
