package io.wakurelay.loadgen;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.buffer.ByteBuf;
import io.wakurelay.node.WakuNode;
import io.wakurelay.protocol.MessageHash;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
 * runs from the hand-over until the last node got it. No link delay is added: loopback's.
 *
 * <p>Reported per node and message: duplicates received (gossipsub's), bytes written to sockets, and CPU (this JVM's
 * over {@code n}); and the delivery ratio, receipts over {@code n} times the messages, which must be 1.
 */
final class MeshScenario {
    static final Duration SETTLE = Duration.ofMinutes(1);

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

    static ResultRow run(Workload workload, int n, int links, double rate, Path dir, PrintStream err) {
        String topic = workload.pubsubTopic();
        List<WakuNode> nodes = new ArrayList<>();
        SplittableRandom random = new SplittableRandom(workload.seed());
        int overlayLinks = 0;
        List<Integer> dialled = new ArrayList<>();
        try (FrameSet frames = new FrameSet(workload)) {
            try {
                for (int i = 0; i < n; i++) {
                    List<String> dials = new ArrayList<>();
                    for (int pick : random.ints(0, Math.max(1, i)).distinct().limit(Math.min(links, i)).toArray()) {
                        dials.add(InProcessNodes.peerAddress(nodes.get(pick)));
                    }
                    overlayLinks += dials.size();
                    dialled.add(dials.size());
                    nodes.add(WakuNode.start(InProcessNodes.manyOnLoopback(
                            InProcessNodes.config(dir.resolve("node-" + i), null, "", topic, dials, false), n)));
                }
                err.printf("mesh: %d nodes, %d links%n", n, overlayLinks);
                awaitMeshes(nodes, dialled, topic, Duration.ofSeconds(60));
                return measure(workload, nodes, overlayLinks, rate, random, frames, err);
            } finally {
                nodes.forEach(WakuNode::close);
            }
        }
    }

    private static ResultRow measure(Workload workload, List<WakuNode> nodes, int overlayLinks, double rate,
                                     SplittableRandom random, FrameSet frames, PrintStream err) {
        int n = nodes.size();
        int total = workload.total();
        // nodes still without each message in flight (the window bounds this map)
        Map<MessageHash, AtomicInteger> missing = new ConcurrentHashMap<>();
        AtomicLong receipts = new AtomicLong();
        Window window = Window.standard(rate);
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
            long receipts0 = receipts.get();
            double duplicates0 = sum(nodes, "libp2p.gossipsub.duplicate", null);
            double bytesOut0 = sum(nodes, "libp2p.network.bytes", "out");
            long cpu0 = Measurement.processCpuNanos();
            Measurement m = new Measurement("mesh", workload.count(), null);
            try (Progress p = m.progress("mesh", () -> workload.count() - tracker.outstanding(), err)) {
                MacroScenario.send(sink, frames, tracker, window, workload.warmup(), total);
                // a message that has not reached every node a minute after the last hand-over is missing: counted,
                // and the delivery ratio below 1 says how much of it went where
                awaitQuietly(tracker, SETTLE);
            }
            long missingMessages = tracker.measured.getCount();
            double perNodeMessage = (double) n * workload.count();
            Map<String, Object> extras = new LinkedHashMap<>();
            extras.put("nodes", n);
            extras.put("overlay_links", overlayLinks);
            extras.put("rate", rate);
            extras.put("delivery_ratio", (receipts.get() - receipts0) / perNodeMessage);
            extras.put("duplicates_per_node_msg",
                    round3((sum(nodes, "libp2p.gossipsub.duplicate", null) - duplicates0) / perNodeMessage));
            extras.put("bytes_out_per_node_msg",
                    Math.round((sum(nodes, "libp2p.network.bytes", "out") - bytesOut0) / perNodeMessage));
            extras.put("cpu_us_per_node_msg", Math.round((Measurement.processCpuNanos() - cpu0) / perNodeMessage / 100) / 10.0);
            return m.finish(tracker.lastConfirmed(), tracker.latencies(), frames.payloadBytes(workload.warmup(), total),
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
