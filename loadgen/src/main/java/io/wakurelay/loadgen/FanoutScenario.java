package io.wakurelay.loadgen;

import io.wakurelay.archive.RocksConfig;
import io.micrometer.core.instrument.MeterRegistry;
import io.wakurelay.node.config.NodeConfig;
import io.wakurelay.node.WakuNode;
import io.wakurelay.protocol.MessageHash;
import io.wakurelay.relay.GossipParams;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One relay node forwarding to {@code d} mesh peers over Noise and yamux, all in this JVM on loopback: what a relay
 * node in a real mesh pays, one encryption and one write per mesh peer per message. The load generator hands the
 * relay pre-encoded frames as a peer would (decoded, validated, hashed, archived and forwarded to every mesh peer);
 * a message counts when all {@code d} peers have it, and its latency runs from the hand-over until the last of them
 * got it. The relay's degrees are set so that its mesh holds exactly the {@code d} peers (D = {@code d}); each peer
 * is connected to the relay only (a star), so no peer receives a message twice.
 *
 * <p>Reported beside msg/s: bytes the relay wrote per delivered message copy (its whole socket output, Noise,
 * yamux and gossipsub control included) against the payload, the CPU of this JVM per message (the relay's, the
 * {@code d} peers' and the generator's together), and that CPU by thread, from which the relay's share is told apart
 * from its peers': its event loops are named {@value #RELAY_THREADS}, theirs {@value #PEER_THREADS}.
 */
final class FanoutScenario {
    /** The relay's event loop threads are named apart from the peers' ({@value #PEER_THREADS}...). */
    static final String RELAY_THREADS = "fanout-relay";
    private static final String PEER_THREADS = "wakurelay-p2p";

    private FanoutScenario() {
    }

    static ResultRow run(Workload workload, int d, Path dir, PrintStream err) {
        String topic = workload.pubsubTopic();
        List<WakuNode> peers = new ArrayList<>();
        try (FrameSet frames = new FrameSet(workload);
             WakuNode relay = startRelay(dir.resolve("relay"), topic, d)) {
            try {
                for (int i = 0; i < d; i++) {
                    peers.add(InProcessNodes.start(dir.resolve("peer-" + i), false, topic,
                            List.of(InProcessNodes.peerAddress(relay))));
                }
                for (WakuNode peer : peers) {
                    InProcessNodes.awaitPeer(relay, peer, topic, Duration.ofSeconds(60));
                    InProcessNodes.awaitPeer(peer, relay, topic, Duration.ofSeconds(60));
                }
                return measure(workload, d, frames, relay, peers, err);
            } finally {
                peers.forEach(WakuNode::close);
            }
        }
    }

    private static ResultRow measure(Workload workload, int d, FrameSet frames, WakuNode relay, List<WakuNode> peers,
                                     PrintStream err) {
        Window window = Window.standard(0);
        Tracker tracker = new Tracker(workload.total(), workload.warmup(), i -> window.release(frames.payloadSize(i)));
        // copies still missing, per message in flight (the window bounds this map)
        Map<MessageHash, AtomicInteger> missingCopies = new ConcurrentHashMap<>();
        List<AutoCloseable> taps = new ArrayList<>();
        for (WakuNode peer : peers) {
            taps.add(peer.tap(e -> {
                AtomicInteger left = missingCopies.computeIfAbsent(e.hash(), h -> new AtomicInteger(d));
                if (left.decrementAndGet() == 0) {
                    missingCopies.remove(e.hash());
                    tracker.confirmed(e.hash(), System.nanoTime());
                }
            }));
        }
        try (FrameFeeder feeder = new FrameFeeder(relay)) {
            MacroScenario.send(feeder, frames, tracker, window, 0, workload.warmup());
            MicroScenario.await(tracker.warm, "warmup", MacroScenario.STALL);
            MeterRegistry registry = relay.metrics().registry();
            double bytesOut0 = bytesOut(registry);
            long self = ProcessHandle.current().pid();
            Map<String, Long> threads0 = ThreadCpu.snapshot(self);
            Measurement m = new Measurement("fanout", workload.count(), relay.counters()).notNodeCpu(frames::encoderCpuNanos);
            try (Progress p = m.progress("fanout", () -> workload.count() - tracker.outstanding(), err)) {
                MacroScenario.send(feeder, frames, tracker, window, workload.warmup(), workload.total());
                MicroScenario.await(tracker.measured, "every message at every mesh peer", Duration.ofMinutes(30));
            }
            double n = workload.count();
            Map<String, Double> byThread = ThreadCpu.microsPerMessage(threads0, ThreadCpu.snapshot(self), workload.count());
            long payload = frames.payloadBytes(workload.warmup(), workload.total());
            double wireBytes = bytesOut(registry) - bytesOut0;
            Map<String, Object> extras = new LinkedHashMap<>();
            extras.put("mesh_peers", d);
            extras.put("delivered_copies", (long) n * d);
            extras.put("relay_bytes_out_per_copy", Math.round(wireBytes / (n * d)));
            extras.put("payload_bytes_per_msg", Math.round(payload / n));
            extras.put("relay_wire_overhead", Math.round((wireBytes / d - payload) / payload * 10_000) / 10_000.0);
            extras.put("cpu_us_per_msg_by_thread", byThread);
            extras.put("relay_cpu_us_per_msg", sum(byThread, FanoutScenario::relayThread));
            extras.put("peers_cpu_us_per_msg", sum(byThread, name -> name.startsWith(PEER_THREADS)));
            return m.finish(tracker.lastConfirmed(), tracker.latencies(), payload, 0, extras);
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

    /**
     * The relay's threads, as Linux names them: its event loops (named apart from the peers'), its archive and RocksDB's,
     * the thread that carries the frames handed to it ({@link RelayInjector}) and the relays' heartbeat schedulers; the
     * peers' do only their heartbeats, a few microseconds a message, counted here too. Collector and compiler threads are in neither sum.
     */
    private static boolean relayThread(String name) {
        return name.startsWith(RELAY_THREADS) || name.startsWith("waku-archive") || name.startsWith("rocksdb")
                || name.equals("relay-heartbeat") || name.startsWith(RelayInjector.THREAD);
    }

    private static double sum(Map<String, Double> byThread, java.util.function.Predicate<String> which) {
        double total = byThread.entrySet().stream().filter(e -> which.test(e.getKey())).mapToDouble(Map.Entry::getValue).sum();
        return Math.round(total * 10) / 10.0;
    }

    /** The relay under test: mesh degree D = {@code d}, room for all {@code d} peers (no pruning, no refusals). */
    private static WakuNode startRelay(Path dir, String topic, int d) {
        NodeConfig base = InProcessNodes.config(dir, RocksConfig.DEFAULTS.durability(), "", topic, List.of(), false);
        GossipParams gossip = base.relay().gossip();
        int dLo = Math.max(1, Math.min(gossip.dLo(), d));
        int dOut = Math.min(gossip.dOut(), Math.min(dLo - 1, d / 2));
        GossipParams degrees = gossip.toBuilder()
                .d(d).dLo(dLo).dHi(d + 2).dScore(Math.min(gossip.dScore(), d)).dOut(dOut).build();
        NodeConfig relay = InProcessNodes.manyOnLoopback(base, d + 1);
        return WakuNode.start(relay.toBuilder().relay(relay.relay().toBuilder().gossip(degrees).build())
                .host(relay.host().toBuilder().threadNamePrefix(RELAY_THREADS).build()).build());
    }

    private static double bytesOut(MeterRegistry registry) {
        var counter = registry.find("libp2p.network.bytes").tag("direction", "out").counter();
        return counter == null ? Double.NaN : counter.count();
    }
}
