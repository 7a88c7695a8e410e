package io.wakurelay.loadgen;

import io.wakurelay.archive.RocksConfig;
import io.netty.buffer.ByteBuf;
import io.wakurelay.archive.CommittedBatch;
import io.wakurelay.node.config.NodeConfig;
import io.wakurelay.node.NodeProcess;
import io.wakurelay.node.WakuNode;
import io.wakurelay.protocol.MessageHash;
import reactor.core.Disposable;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Two nodes on loopback: a publisher (A, no archive) and an archiving receiver (B). The load generator hands
 * A pre-encoded frames as a peer would (A decodes, validates, hashes and relays each to B); a message counts
 * when B has committed it, and its latency runs from the hand-over to A until B's commit. B runs in this JVM,
 * or, with {@code processes}, as a separate process whose store is polled over REST (latency then includes
 * the polling interval). With {@code webSocket} (in this JVM only), A dials B over libp2p's WebSocket transport
 * ({@code /ws}) instead of TCP.
 */
final class MacroScenario {
    static final Duration STALL = Duration.ofMinutes(2);

    private MacroScenario() {
    }

    static ResultRow run(Workload workload, Path dir, boolean processes, PrintStream err) {
        return run(workload, dir, processes, "", false, StorePoller.DEFAULT_INTERVAL, err);
    }

    /**
     * @param storeDbUrl where the receiver archives: empty for RocksDB, {@code postgres://...} for PostgreSQL
     * @param webSocket  whether the publisher dials the receiver over {@code /ws} (both in this JVM)
     * @param storePoll  with {@code processes}: how often the receiver's Store is polled for what it archived
     */
    static ResultRow run(Workload workload, Path dir, boolean processes, String storeDbUrl, boolean webSocket,
                         Duration storePoll, PrintStream err) {
        if (processes && webSocket) {
            throw new IllegalArgumentException("--transport ws runs both nodes in this JVM: leave out --processes");
        }
        return processes ? runWithProcess(workload, dir, storeDbUrl, storePoll, err)
                : runInProcess(workload, dir, storeDbUrl, webSocket, err);
    }

    private static ResultRow runInProcess(Workload workload, Path dir, String storeDbUrl, boolean webSocket, PrintStream err) {
        try (FrameSet frames = new FrameSet(workload);
             WakuNode b = WakuNode.start(InProcessNodes.config(dir.resolve("receiver"), RocksConfig.DEFAULTS.durability(),
                     storeDbUrl, workload.pubsubTopic(), List.of(), webSocket));
             WakuNode a = InProcessNodes.start(dir.resolve("publisher"), false, workload.pubsubTopic(),
                     List.of(webSocket ? InProcessNodes.webSocketAddress(b) : InProcessNodes.peerAddress(b)))) {
            InProcessNodes.awaitPeer(a, b, workload.pubsubTopic(), Duration.ofSeconds(30));
            InProcessNodes.awaitPeer(b, a, workload.pubsubTopic(), Duration.ofSeconds(30));
            Window window = Window.standard(0);
            Tracker tracker = new Tracker(workload.total(), workload.warmup(), i -> window.release(frames.payloadSize(i)));
            Disposable watch = b.committed().subscribe((CommittedBatch batch) -> {
                for (MessageHash h : batch.stored()) {
                    tracker.confirmed(h, batch.committedAtNanos());
                }
            });
            try (FrameFeeder feeder = new FrameFeeder(a)) {
                send(feeder, frames, tracker, window, 0, workload.warmup());
                MicroScenario.await(tracker.warm, "warmup", STALL);
                long aHashes0 = a.counters().hashes();
                Measurement m = new Measurement("macro", workload.count(), b.counters());
                try (Progress p = m.progress("macro", () -> workload.count() - tracker.outstanding(), err)) {
                    send(feeder, frames, tracker, window, workload.warmup(), workload.total());
                    MicroScenario.await(tracker.measured, "all measured messages archived", Duration.ofMinutes(30));
                }
                Map<String, Object> extras = new LinkedHashMap<>();
                extras.put("publisher_hashes_per_msg", (a.counters().hashes() - aHashes0) / (double) workload.count());
                extras.put("mode", "in-process");
                extras.put("archive", InProcessNodes.backend(storeDbUrl));
                extras.put("transport", webSocket ? "ws" : "tcp");
                return m.finish(tracker.lastConfirmed(), tracker.latencies(), frames.payloadBytes(workload.warmup(), workload.total()), 0, extras);
            } finally {
                watch.dispose();
            }
        }
    }

    private static ResultRow runWithProcess(Workload workload, Path dir, String storeDbUrl, Duration storePoll, PrintStream err) {
        List<String> args = List.of("--store-message-db-url", storeDbUrl,"--data-dir", dir.resolve("receiver").toString(), "--listen-address", "127.0.0.1",
                "--tcp-port", "0", "--rest-port", "0", "--metrics-server-port", "0", "--pubsub-topic", workload.pubsubTopic(),
                "--max-clock-drift", InProcessNodes.CLOCK_DRIFT.toSeconds() + "s", "--store-message-retention-policy", "none");
        try (FrameSet frames = new FrameSet(workload);
             NodeProcess b = NodeProcess.start(List.of("-Xmx256m"), args, Duration.ofSeconds(60), dir.resolve("receiver.log"));
             WakuNode a = InProcessNodes.start(dir.resolve("publisher"), false, workload.pubsubTopic(),
                     List.of(b.multiaddr().toString()))) {
            InProcessNodes.awaitMesh(a, b.peerId(), workload.pubsubTopic(), Duration.ofSeconds(30));
            RestStoreClient store = new RestStoreClient("127.0.0.1:" + b.restAddress().getPort(), workload.pubsubTopic(), workload.contentTopic());
            RemoteMetrics metrics = new RemoteMetrics("127.0.0.1:" + b.metricsAddress().getPort());
            Window window = Window.standard(0);
            Tracker tracker = new Tracker(workload.total(), workload.warmup(), i -> window.release(frames.payloadSize(i)));
            long start = WakuNode.nowNanos() - Duration.ofMinutes(1).toNanos();
            try (StorePoller poller = new StorePoller(store, start, tracker, storePoll); FrameFeeder feeder = new FrameFeeder(a)) {
                send(feeder, frames, tracker, window, 0, workload.warmup());
                MicroScenario.await(tracker.warm, "warmup", STALL);
                String before = metrics.scrape();
                long self = ProcessHandle.current().pid();
                Map<String, Long> receiverThreads0 = ThreadCpu.snapshot(b.pid());
                Map<String, Long> publisherThreads0 = ThreadCpu.snapshot(self);
                RemoteMetrics.Peaks receiver = new RemoteMetrics.Peaks(metrics, Duration.ofMillis(100));
                Measurement m = new Measurement("macro", workload.count(), null);
                try (receiver; Progress p = m.progress("macro", () -> workload.count() - tracker.outstanding(), err)) {
                    send(feeder, frames, tracker, window, workload.warmup(), workload.total());
                    MicroScenario.await(tracker.measured, "all measured messages archived", Duration.ofMinutes(30));
                }
                String after = metrics.scrape();
                Map<String, Double> receiverThreads = ThreadCpu.microsPerMessage(receiverThreads0, ThreadCpu.snapshot(b.pid()), workload.count());
                Map<String, Double> publisherThreads = ThreadCpu.microsPerMessage(publisherThreads0, ThreadCpu.snapshot(self), workload.count());
                ResultRow local = m.finish(tracker.lastConfirmed(), tracker.latencies(), frames.payloadBytes(workload.warmup(), workload.total()),
                        0, Map.of());
                double n = workload.count();
                Map<String, Object> extras = new LinkedHashMap<>();
                extras.put("mode", "processes");
                extras.put("archive", InProcessNodes.backend(storeDbUrl));
                extras.put("latency_resolution_ms", storePoll.toMillis());
                extras.put("publisher_peak_heap_mb", local.peakHeapMb());
                extras.put("publisher_alloc_bytes_per_msg", local.allocBytesPerMsg());
                extras.put("receiver_memory_sampled_every_ms", 100);
                extras.put("receiver_cpu_us_per_msg", Math.round(delta(before, after, "process_cpu_time_ns_total") / n / 100) / 10.0);
                extras.put("publisher_jvm_cpu_us_per_msg", local.extras().get("jvm_cpu_us_per_msg"));
                // where each process's CPU went, native threads (RocksDB's) included: the profile behind the two figures
                extras.put("receiver_cpu_us_per_msg_by_thread", receiverThreads);
                extras.put("publisher_cpu_us_per_msg_by_thread", publisherThreads);
                // the receiver's figures come from its /metrics; the JVM there does not say what each thread allocated
                return new ResultRow("macro", workload.count(), local.elapsedMs(), local.msgPerS(), local.p50Ns(), local.p99Ns(),
                        delta(before, after, "waku_decodes_total") / n, delta(before, after, "waku_hashes_total") / n,
                        delta(before, after, "waku_payload_copies_total") / n,
                        receiver.heapMb(), receiver.rssMb(), Double.NaN,
                        (long) delta(before, after, "jvm_gc_pause_seconds_count"), local.mbPerS(), local.avgNs(),
                        receiver.directMb(), 0, extras,
                        tracker.latencies().sorted(), local.timeline());
            }
        }
    }

    private static double delta(String before, String after, String name) {
        return RemoteMetrics.sum(after, name) - RemoteMetrics.sum(before, name);
    }

    /** Sends frames [from, to) through the feeder, each once the window has room. */
    static void send(FrameSink feeder, FrameSet frames, Tracker tracker, Window window, int from, int to) {
        for (int i = from; i < to; i++) {
            window.acquire(frames.payloadSize(i), STALL);
            tracker.sending(i);
            ByteBuf frame = frames.frame(i);
            tracker.published(i, frames.hash(i));
            feeder.send(frame);
        }
    }
}
