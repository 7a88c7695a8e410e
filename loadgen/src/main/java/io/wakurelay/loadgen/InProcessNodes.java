package io.wakurelay.loadgen;

import io.wakurelay.node.NodeMain;
import io.wakurelay.node.WakuNode;
import io.wakurelay.relay.PeerInfo;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Nodes started inside the load generator's JVM, configured through the node's own command line. */
final class InProcessNodes {
    /**
     * Messages of a long pre-generated workload may be older than the default 20 s drift by the time they are
     * sent; the check stays on, with a window that covers the run.
     */
    static final String CLOCK_DRIFT = "600s";

    private InProcessNodes() {
    }

    static WakuNode start(Path dataDir, boolean store, String pubsubTopic, List<String> staticPeers) {
        List<String> args = new ArrayList<>(List.of("--data-dir", dataDir.toString(), "--listen-address", "127.0.0.1",
                "--tcp-port", "0", "--rest", "false", "--metrics-server", "false", "--store", String.valueOf(store),
                "--pubsub-topic", pubsubTopic, "--max-clock-drift", CLOCK_DRIFT, "--store-message-retention-policy", "none",
                "--log-level", "WARN"));
        for (String peer : staticPeers) {
            args.add("--staticnode");
            args.add(peer);
        }
        return WakuNode.start(NodeMain.parse(args.toArray(String[]::new), Map.of()));
    }

    static String peerAddress(WakuNode node) {
        return "127.0.0.1:" + node.peerAddress().getPort();
    }

    /** Waits until {@code from} has {@code to} as a peer that wants {@code topic}. */
    static void awaitPeer(WakuNode from, WakuNode to, String topic, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            for (PeerInfo p : from.relay().peers()) {
                if (p.nodeId().equals(to.nodeId()) && p.topics().contains(topic)) {
                    return;
                }
            }
            sleep(20);
        }
        throw new IllegalStateException("node " + from.nodeId() + " did not connect to " + to.nodeId() + " within " + timeout);
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
