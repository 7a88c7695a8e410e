package io.wakurelay.loadgen;

import io.netty.buffer.ByteBuf;
import io.wakurelay.node.WakuNode;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Against running nodes: connects to one node's peer port as a peer (or posts to one node's REST API), publishes the
 * seeded mix (at a rate, or as fast as confirmations allow), watches the other node's store over REST, and finally looks up every
 * hash there. Reports how many are missing (must be 0), throughput, and publish-to-archived latency (with
 * the polling interval as its resolution); the row's node columns are the store node's, from its /metrics
 * ({@link RemoteNodeMeter}).
 */
final class DriveScenario {
    private DriveScenario() {
    }

    /**
     * The nodes a run drives.
     *
     * @param publishTo   a multiaddr with /p2p: publish as a libp2p peer of that node (gossipsub); or null
     * @param publishRest HOST:PORT: publish through that node's REST API instead (ours or nwaku's); or null
     * @param storeAt     HOST:PORT of the REST API of the node whose store is checked
     * @param metricsAt   HOST:PORT of that node's /metrics
     */
    record Nodes(String publishTo, String publishRest, String storeAt, String metricsAt) {
    }

    static ResultRow run(Workload workload, Nodes nodes, double rate, Duration settle, Path dir, PrintStream err) {
        String publishTo = nodes.publishTo();
        String storeAt = nodes.storeAt();
        RemoteMetrics metrics = new RemoteMetrics(nodes.metricsAt());
        try {
            metrics.scrape("waku_decodes_total"); // before anything is sent: a wrong address fails the run at once
        } catch (IllegalStateException e) {
            throw new IllegalArgumentException("the --store-at node's metrics: " + e.getMessage()
                    + " (give its address with --metrics-at; the node serves them with --metrics-server)", e);
        }
        try (FrameSet frames = new FrameSet(workload);
             WakuNode client = publishTo == null ? null
                     : InProcessNodes.start(dir.resolve("drive-client"), false, workload.pubsubTopic(), List.of(publishTo))) {
            if (client != null) {
                awaitConnected(client, workload.pubsubTopic());
            }
            RestStoreClient store = new RestStoreClient(storeAt, workload.pubsubTopic(), workload.contentTopic());
            Window window = Window.standard(rate);
            Tracker tracker = new Tracker(workload.total(), workload.warmup(), i -> window.release(frames.payloadSize(i)));
            long start = WakuNode.nowNanos() - Duration.ofMinutes(1).toNanos();
            try (StorePoller poller = new StorePoller(store, start, tracker);
                 FrameSink feeder = client != null ? new FrameFeeder(client) : new RestPublisher(nodes.publishRest(), workload.pubsubTopic())) {
                MacroScenario.send(feeder, frames, tracker, window, 0, workload.warmup());
                MicroScenario.await(tracker.warm, "warmup messages in the store at " + storeAt, MacroScenario.STALL);
                RemoteNodeMeter storeNode = RemoteNodeMeter.start(metrics);
                Measurement m = new Measurement("drive", workload.count(), null);
                long end;
                try (storeNode; Progress p = m.progress("drive", () -> workload.count() - tracker.outstanding(), err)) {
                    sendTolerant(feeder, frames, tracker, window, workload.warmup(), workload.total(), settle, err);
                    awaitQuietly(tracker, settle);
                    end = tracker.lastConfirmed();
                }
                RemoteNodeMeter.Figures figures = storeNode.finish(workload.count());
                if (!figures.absent().isEmpty()) {
                    err.printf("drive: %s serves no %s: those columns are 0, not measured (not a node of this project?)%n",
                            nodes.metricsAt(), figures.absent());
                }
                if (poller.failure() != null) {
                    err.println("drive: polling the store failed: " + poller.failure().getMessage());
                }
                // messages never sent (sending stopped on a stall) have no hash and count as missing
                List<String> all = new ArrayList<>();
                for (int i = workload.warmup(); i < frames.taken(); i++) {
                    all.add(frames.hash(i).toHex());
                }
                Set<String> present = store.present(all);
                long missing = workload.count() - present.size();
                if (missing > 0) {
                    err.printf("drive: %d of %d messages are missing from %s%n", missing, workload.count(), storeAt);
                }
                Map<String, Object> extras = new LinkedHashMap<>();
                extras.put("publish_to", publishTo != null ? publishTo : "rest:" + nodes.publishRest());
                extras.put("store_at", storeAt);
                extras.put("metrics_at", nodes.metricsAt());
                extras.put("rate", rate);
                extras.put("latency_resolution_ms", StorePoller.DEFAULT_INTERVAL.toMillis());
                ResultRow local = m.finish(end == 0 ? System.nanoTime() : end, tracker.latencies(),
                        frames.payloadBytes(workload.warmup(), workload.total()), missing, Map.of());
                return figures.into(local, "store", extras);
            }
        }
    }

    /**
     * Like {@link MacroScenario#send}, but a window that never frees (messages lost on the way) ends the sending
     * instead of the run: what was sent is then checked, and the losses are reported.
     */
    private static void sendTolerant(FrameSink feeder, FrameSet frames, Tracker tracker, Window window, int from, int to,
                                     Duration settle, PrintStream err) {
        for (int i = from; i < to; i++) {
            try {
                window.acquire(frames.payloadSize(i), settle);
            } catch (IllegalStateException stalled) {
                err.printf("drive: nothing was confirmed for %s; stopped sending after %d of %d messages%n", settle, i - from, to - from);
                return;
            }
            tracker.sending(i);
            ByteBuf frame = frames.frame(i);
            tracker.published(i, frames.hash(i));
            feeder.send(frame);
        }
    }

    /** Waits until every message is confirmed, or nothing new was confirmed for {@code settle}. */
    private static void awaitQuietly(Tracker tracker, Duration settle) {
        long lastChange = System.nanoTime();
        long outstanding = tracker.outstanding();
        while (outstanding > 0 && System.nanoTime() - lastChange < settle.toNanos()) {
            InProcessNodes.sleep(50);
            long now = tracker.outstanding();
            if (now != outstanding) {
                outstanding = now;
                lastChange = System.nanoTime();
            }
        }
    }

    private static void awaitConnected(WakuNode client, String topic) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        // the client forwards what it is handed to its gossipsub mesh, so it waits for a mesh peer
        while (client.relay().mesh().getOrDefault(topic, List.of()).isEmpty()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no peer joined the client's mesh of " + topic + " within 30 s; its peers: "
                        + client.relay().peers());
            }
            InProcessNodes.sleep(20);
        }
    }
}
