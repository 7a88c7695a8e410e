package io.wakurelay.loadgen;

import io.wakurelay.node.NodeMain;
import io.wakurelay.node.WakuNode;

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
    /**
     * The relay's message cache (direct memory) of each node here: the default 64 MiB twice (macro, lat and thr run
     * two or three nodes) would take all the direct memory of a JVM started with -Xmx128m.
     */
    static final String MESSAGE_CACHE = "16MiB";

    private InProcessNodes() {
    }

    static WakuNode start(Path dataDir, boolean store, String pubsubTopic, List<String> staticPeers) {
        List<String> args = new ArrayList<>(List.of("--data-dir", dataDir.toString(), "--listen-address", "127.0.0.1",
                "--tcp-port", "0", "--rest", "false", "--metrics-server", "false", "--store", String.valueOf(store),
                "--pubsub-topic", pubsubTopic, "--max-clock-drift", CLOCK_DRIFT, "--store-message-retention-policy", "none",
                "--log-level", "WARN", "--relay-message-cache-size", MESSAGE_CACHE));
        for (String peer : staticPeers) {
            args.add("--staticnode");
            args.add(peer);
        }
        return WakuNode.start(NodeMain.parse(args.toArray(String[]::new), Map.of()));
    }

    /** The multiaddr, with peer id, peers dial {@code node} at. */
    static String peerAddress(WakuNode node) {
        return node.multiaddr().toString();
    }

    /**
     * Waits until {@code from} has {@code to} in its gossipsub mesh of {@code topic}: only then does it forward the
     * messages it receives to {@code to} (its own publishes go to every peer of the topic).
     */
    static void awaitPeer(WakuNode from, WakuNode to, String topic, Duration timeout) {
        awaitMesh(from, to.peerId(), topic, timeout);
    }

    static void awaitMesh(WakuNode from, String peerId, String topic, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (from.relay().mesh().getOrDefault(topic, List.of()).stream().anyMatch(p -> p.toString().equals(peerId))) {
                return;
            }
            sleep(20);
        }
        throw new IllegalStateException("node " + from.peerId() + " did not have " + peerId + " in its mesh of " + topic
                + " within " + timeout + "; its peers: " + from.relay().peers());
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
