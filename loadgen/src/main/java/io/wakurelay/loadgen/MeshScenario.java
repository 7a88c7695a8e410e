package io.wakurelay.loadgen;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.buffer.ByteBuf;
import io.wakurelay.node.WakuNode;
import io.wakurelay.node.config.NodeConfig;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.relay.GossipParams;
import io.wakurelay.protocol.MessageHash;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How the cost of relaying grows with the network: {@code n} relay nodes in this JVM on loopback, each dialling
 * {@code links} random nodes started before it (a connected random overlay), gossipsub with its default degrees
 * forming the meshes. Messages of the seeded mix are handed, at {@code rate} per second, to a node drawn at random
 * (seeded), as from a peer outside; a message counts when every one of the {@code n} nodes has it, and its latency
 * runs from the hand-over until the last node got it. With a link delay, every link is a {@link LinkDelay} proxy:
 * each direction of every connection arrives that much later, as over a network.
 *
 * <p>Reported per node and message: duplicates received (gossipsub's), copies not sent thanks to an IDONTWANT,
 * bytes written to sockets, and CPU (this JVM's less the generator's and the proxies', over {@code n}); the delivery
 * ratio, receipts over {@code n} times the messages, which must be 1; and the hops of the gossipsub meshes
 * ({@link MeshHops}), with which the scenario checks its latency goal: p99 within 2 × (hops × link delay) + 50 ms.
 */
final class MeshScenario {
    static final Duration SETTLE = Duration.ofMinutes(1);
    /** The goal's allowance beyond the links' delay: queueing, decoding, hashing, encryption on every hop. */
    static final Duration GOAL_SLACK = Duration.ofMillis(50);

    private MeshScenario() {
    }

    private static void awaitQuietly(Tracker tracker, Duration timeout) {
        try {
            tracker.measured.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /**
     * What a mesh run varies.
     *
     * @param linkDelay         one-way delay added to every link (zero: loopback's only)
     * @param linkBitsPerSecond each direction's bandwidth on every link; 0 for none
     * @param iDontWant         whether the nodes send IDONTWANT (gossipsub v1.2) for messages over nim-libp2p's threshold
     */
    record Settings(int nodes, int links, double rate, Duration linkDelay, long linkBitsPerSecond, boolean iDontWant) {
    }

    static ResultRow run(Workload workload, Settings settings, Path dir, PrintStream err) {
        int n = settings.nodes();
        String topic = workload.pubsubTopic();
        List<WakuNode> nodes = new ArrayList<>();
        SplittableRandom random = new SplittableRandom(workload.seed());
        int overlayLinks = 0;
        List<Integer> dialled = new ArrayList<>();
        boolean delayed = !settings.linkDelay().isZero() || settings.linkBitsPerSecond() > 0;
        try (FrameSet frames = new FrameSet(workload);
             LinkDelay delay = new LinkDelay(settings.linkDelay(), settings.linkBitsPerSecond(), delayed ? 2 : 1)) {
            try {
                for (int i = 0; i < n; i++) {
                    List<String> dials = new ArrayList<>();
                    for (int pick : random.ints(0, Math.max(1, i)).distinct().limit(Math.min(settings.links(), i)).toArray()) {
                        dials.add(delayed ? throughDelay(nodes.get(pick), delay) : InProcessNodes.peerAddress(nodes.get(pick)));
                    }
                    overlayLinks += dials.size();
                    dialled.add(dials.size());
                    nodes.add(WakuNode.start(nodeConfig(dir.resolve("node-" + i), topic, dials, n, settings.iDontWant())));
                }
                err.printf("mesh: %d nodes, %d links, link delay %d ms, IDONTWANT %s%n", n, overlayLinks,
                        settings.linkDelay().toMillis(), settings.iDontWant() ? "on" : "off");
                awaitMeshes(nodes, dialled, topic, Duration.ofSeconds(60).plus(settings.linkDelay().multipliedBy(200)));
                return measure(workload, settings, nodes, overlayLinks, random, frames, delay, err);
            } finally {
                nodes.forEach(WakuNode::close);
            }
        }
    }

    private static NodeConfig nodeConfig(Path dir, String topic, List<String> dials, int n, boolean iDontWant) {
        NodeConfig config = InProcessNodes.manyOnLoopback(InProcessNodes.config(dir, null, "", topic, dials, false), n);
        if (iDontWant) {
            return config;
        }
        GossipParams gossip = config.relay().gossip().toBuilder().iDontWantMinBytes(GossipParams.IDONTWANT_OFF).build();
        return config.toBuilder().relay(config.relay().toBuilder().gossip(gossip).build()).build();
    }

    /** The address to dial {@code node} at through a new link of {@code delay}, with its peer id. */
    private static String throughDelay(WakuNode node, LinkDelay delay) {
        Multiaddr direct = node.multiaddr();
        return Multiaddr.of(delay.link(direct.toSocketAddress())).withPeerId(direct.peerId().orElseThrow()).toString();
    }

    private static ResultRow measure(Workload workload, Settings settings, List<WakuNode> nodes, int overlayLinks,
                                     SplittableRandom random, FrameSet frames, LinkDelay delay, PrintStream err) {
        int n = nodes.size();
        int total = workload.total();
        String topic = workload.pubsubTopic();
        // nodes still without each message in flight (the window bounds this map)
        Map<MessageHash, AtomicInteger> missing = new ConcurrentHashMap<>();
        AtomicLong receipts = new AtomicLong();
        Window window = Window.standard(settings.rate());
        Tracker tracker = new Tracker(total, workload.warmup(), i -> window.release(frames.payloadSize(i)));
        List<AutoCloseable> taps = new ArrayList<>();
        for (WakuNode node : nodes) {
            taps.add(node.tap(e -> {
                receipts.incrementAndGet();
                if (missing.computeIfAbsent(e.hash(), h -> new AtomicInteger(n)).decrementAndGet() == 0) {
                    missing.remove(e.hash());
                    tracker.confirmed(e.hash(), System.nanoTime());
                }
            }));
        }
        List<FrameFeeder> feeders = new ArrayList<>();
        try {
            for (WakuNode node : nodes) {
                feeders.add(new FrameFeeder(node));
            }
            // the hand-over goes to a node drawn for each message, as from a peer outside the overlay
            int[] entry = random.ints(total, 0, n).toArray();
            FrameSink sink = new FrameSink() {
                private int next;

                @Override
                public void send(ByteBuf frame) {
                    feeders.get(entry[next++]).send(frame);
                }

                @Override
                public void close() {
                }
            };
            MacroScenario.send(sink, frames, tracker, window, 0, workload.warmup());
            MicroScenario.await(tracker.warm, "warmup (every node has every message)", MacroScenario.STALL);
            int[] measuredEntries = Arrays.copyOfRange(entry, workload.warmup(), total);
            MeshHops hopsAtStart = MeshHops.of(forwardsTo(nodes, topic), measuredEntries);
            long receipts0 = receipts.get();
            double duplicates0 = sum(nodes, "libp2p.gossipsub.duplicate", null);
            double saved0 = sum(nodes, "libp2p.gossipsub.idontwant.saved.messages", null);
            double byBytes0 = sum(nodes, "waku.relay.message.ids.by.bytes", null);
            double bytesOut0 = sum(nodes, "libp2p.network.bytes", "out");
            // every node decodes and hashes each message once (the one it was handed to from its frame): per node-message
            Measurement m = Measurement.ofNodes("mesh", workload.count(), nodes.stream().map(WakuNode::counters).toList(),
                            (long) n * workload.count())
                    .notNodeCpu(() -> frames.encoderCpuNanos() + delay.cpuNanos());
            long self = ProcessHandle.current().pid();
            Map<String, Long> threads0 = ThreadCpu.snapshot(self);
            long cpu0 = Measurement.processCpuNanos();
            long notNodeCpu0 = frames.encoderCpuNanos() + delay.cpuNanos();
            try (Progress p = m.progress("mesh", () -> workload.count() - tracker.outstanding(), err)) {
                MacroScenario.send(sink, frames, tracker, window, workload.warmup(), total);
                // a message that has not reached every node a minute after the last hand-over is missing: counted,
                // and the delivery ratio below 1 says how much of it went where
                awaitQuietly(tracker, SETTLE);
            }
            long nodeCpu = Measurement.processCpuNanos() - cpu0 - (frames.encoderCpuNanos() + delay.cpuNanos() - notNodeCpu0);
            // per node and message, like cpu_us_per_node_msg: the nodes' event loops, the link proxies, JIT, collector
            Map<String, Double> byThread = ThreadCpu.microsPerMessage(threads0, ThreadCpu.snapshot(self), (long) n * workload.count());
            MeshHops hops = hopsAtStart.worse(MeshHops.of(forwardsTo(nodes, topic), measuredEntries));
            long missingMessages = tracker.measured.getCount();
            double perNodeMessage = (double) n * workload.count();
            Map<String, Object> extras = new LinkedHashMap<>();
            extras.put("nodes", n);
            extras.put("overlay_links", overlayLinks);
            extras.put("rate", settings.rate());
            extras.put("link_delay_ms", settings.linkDelay().toMillis());
            extras.put("link_bandwidth_mbit", settings.linkBitsPerSecond() / 1e6);
            extras.put("idontwant", settings.iDontWant() ? "on" : "off");
            extras.put("delivery_ratio", (receipts.get() - receipts0) / perNodeMessage);
            extras.put("duplicates_per_node_msg",
                    round3((sum(nodes, "libp2p.gossipsub.duplicate", null) - duplicates0) / perNodeMessage));
            extras.put("ids_by_bytes_per_node_msg",
                    round3((sum(nodes, "waku.relay.message.ids.by.bytes", null) - byBytes0) / perNodeMessage));
            extras.put("idontwant_saved_per_node_msg",
                    round3((sum(nodes, "libp2p.gossipsub.idontwant.saved.messages", null) - saved0) / perNodeMessage));
            extras.put("bytes_out_per_node_msg",
                    Math.round((sum(nodes, "libp2p.network.bytes", "out") - bytesOut0) / perNodeMessage));
            extras.put("payload_bytes_per_msg", Math.round((double) frames.payloadBytes(workload.warmup(), total) / workload.count()));
            extras.put("cpu_us_per_node_msg", Math.round(nodeCpu / perNodeMessage / 100) / 10.0);
            extras.put("cpu_us_per_node_msg_by_thread", byThread);
            extras.put("mesh_diameter_hops", hops.diameter());
            extras.put("max_hops_from_publisher", hops.maxFromEntries());
            extras.put("mean_hops_from_publisher", Math.round(hops.meanFromEntries() * 100) / 100.0);
            Latencies latencies = tracker.latencies();
            goal(Latencies.percentile(latencies.sorted(), 99), missingMessages, hops, settings.linkDelay(), extras, err);
            return m.finish(tracker.lastConfirmed(), latencies, frames.payloadBytes(workload.warmup(), total),
                    missingMessages, extras);
        } finally {
            feeders.forEach(FrameFeeder::close);
            for (AutoCloseable tap : taps) {
                try {
                    tap.close();
                } catch (Exception ignored) {
                    // a tap's close only removes a listener
                }
            }
        }
    }

    /**
     * Issue 31's goal for the mesh, checked by the run itself: every message at every node, and p99 within
     * 2 × (hops × link delay) + 50 ms, hops being the longest shortest path a message had to travel from the node it
     * was handed to. Goes into the row's JSON and, as pass or fail, on stderr.
     */
    private static void goal(long p99Ns, long missing, MeshHops hops, Duration linkDelay, Map<String, Object> extras,
                             PrintStream err) {
        double boundMs = hops.maxFromEntries() < 0 ? Double.NaN
                : 2.0 * hops.maxFromEntries() * linkDelay.toNanos() / 1e6 + GOAL_SLACK.toMillis();
        double p99Ms = p99Ns / 1e6;
        boolean met = missing == 0 && p99Ms <= boundMs;
        extras.put("p99_goal_ms", boundMs);
        extras.put("p99_goal_met", met);
        err.printf(Locale.ROOT, "mesh goal: delivery %s, p99 %.1f ms against 2 × (%d hops × %d ms) + %d ms = %.1f ms: %s%n",
                missing == 0 ? "complete" : missing + " missing", p99Ms, hops.maxFromEntries(),
                linkDelay.toMillis(), GOAL_SLACK.toMillis(), boundMs, met ? "PASS" : "FAIL");
    }

    /** Each node's mesh peers of {@code topic}, by node index (a peer that is not one of the nodes is left out). */
    private static List<int[]> forwardsTo(List<WakuNode> nodes, String topic) {
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < nodes.size(); i++) {
            index.put(nodes.get(i).peerId(), i);
        }
        List<int[]> result = new ArrayList<>();
        for (WakuNode node : nodes) {
            result.add(node.relay().mesh().getOrDefault(topic, List.of()).stream()
                    .map(p -> index.get(p.toString())).filter(Objects::nonNull).mapToInt(Integer::intValue).toArray());
        }
        return result;
    }

    /**
     * Waits until every node has the connections it dialled and a mesh, then two heartbeats more for the meshes to
     * settle: a message handed to a node with no peers yet is lost, as on any network.
     */
    private static void awaitMeshes(List<WakuNode> nodes, List<Integer> dialled, String topic, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (int i = 0; i < nodes.size(); i++) {
            WakuNode node = nodes.get(i);
            while (node.relay().peers().size() < dialled.get(i)
                    || node.relay().mesh().getOrDefault(topic, List.of()).isEmpty()) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("node " + node.peerId() + " has no mesh or not the " + dialled.get(i)
                            + " peers it dialled within " + timeout + "; its peers: " + node.relay().peers());
                }
                InProcessNodes.sleep(20);
            }
        }
        InProcessNodes.sleep(2 * nodes.get(0).config().relay().gossip().heartbeat().toMillis());
    }

    /** A counter summed over every node's registry ({@code direction} tag when given). */
    private static double sum(List<WakuNode> nodes, String name, String direction) {
        double sum = 0;
        for (WakuNode node : nodes) {
            MeterRegistry registry = node.metrics().registry();
            Counter c = direction == null ? registry.find(name).counter()
                    : registry.find(name).tag("direction", direction).counter();
            sum += c == null ? 0 : c.count();
        }
        return sum;
    }

    private static double round3(double v) {
        return Math.round(v * 1000) / 1000.0;
    }
}
