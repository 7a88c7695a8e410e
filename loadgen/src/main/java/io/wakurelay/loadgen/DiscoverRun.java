package io.wakurelay.loadgen;

import io.wakurelay.node.WakuNode;
import io.wakurelay.relay.RelayPeer;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Watches {@code n} nodes form a relay network by themselves ({@link DiscoverScenario}): snapshots of each node's
 * relay peers and gossipsub mesh of one topic, and the time since the clock started ({@code t0}) at which each
 * milestone was first seen. A milestone not reached before the timeout is reported as -1 (the row's extras hold
 * no nulls).
 */
final class DiscoverRun {
    /** Milestones, in the order they are normally reached; their keys in the row's JSON. */
    static final List<String> MILESTONES = List.of("all_have_relay_peer_ms", "all_have_mesh_peer_ms",
            "mesh_connected_ms", "full_mesh_ms", "all_found_all_ms");

    /** Exit code of {@code discover} when every message arrived but a milestone was not reached in time. */
    static final int EXIT_NOT_FORMED = 4;

    private final List<WakuNode> nodes;
    private final String topic;
    private final long t0;
    private final Map<String, Integer> indexOf = new HashMap<>();
    private final Map<String, Long> reached = new LinkedHashMap<>();
    /** The mesh size each node must reach: gossipsub's D_low, or every other node in a network smaller than that. */
    final int meshTarget;
    private int[] peers;
    private int[] mesh;

    DiscoverRun(List<WakuNode> nodes, String topic, long t0) {
        this.nodes = nodes;
        this.topic = topic;
        this.t0 = t0;
        for (int i = 0; i < nodes.size(); i++) {
            indexOf.put(nodes.get(i).peerId(), i);
        }
        this.meshTarget = Math.min(nodes.get(0).config().relay().gossip().dLo(), nodes.size() - 1);
    }

    /** Polls every {@code poll} until every milestone is reached or {@code timeout} (from {@code t0}) has passed. */
    void awaitFormed(Duration timeout, Duration poll, PrintStream err) {
        long deadline = t0 + timeout.toNanos();
        long lastReport = System.nanoTime();
        while (true) {
            snapshot(System.nanoTime());
            if (reached.size() == MILESTONES.size() || System.nanoTime() > deadline) {
                break;
            }
            if (System.nanoTime() - lastReport > 5_000_000_000L) {
                lastReport = System.nanoTime();
                err.printf("discover: %.1f s: relay peers per node %d..%d, mesh %d..%d; reached %s%n",
                        (lastReport - t0) / 1e9, min(peers), max(peers), min(mesh), max(mesh), reached.keySet());
            }
            InProcessNodes.sleep(poll.toMillis());
        }
        err.printf("discover: reached %s%n", reached);
        List<String> apart = unconnectedPairs();
        if (!apart.isEmpty()) {
            err.printf("discover: %d pairs of nodes are not relay peers: %s%n", apart.size(),
                    apart.subList(0, Math.min(20, apart.size())));
        }
    }

    /**
     * The pairs of nodes that are not relay peers of each other in the topic, each as {@code i-j}, with what each side
     * holds of the other ({@code r}: a relay peer of the topic, {@code p}: a relay peer not (yet) of the topic,
     * {@code c}: a connection without relay, {@code -}: nothing).
     */
    List<String> unconnectedPairs() {
        List<String> apart = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            for (int j = i + 1; j < nodes.size(); j++) {
                String ij = holds(nodes.get(i), nodes.get(j));
                String ji = holds(nodes.get(j), nodes.get(i));
                if (!ij.equals("r") || !ji.equals("r")) {
                    apart.add(i + "-" + j + "(" + ij + "/" + ji + ")");
                }
            }
        }
        return apart;
    }

    private String holds(WakuNode from, WakuNode to) {
        RelayPeer peer = from.relay().peers().stream().filter(p -> p.peerId().toString().equals(to.peerId()))
                .findFirst().orElse(null);
        if (peer != null) {
            return peer.topics().contains(topic) ? "r" : "p";
        }
        return from.host().connection(to.host().peerId()).isPresent() ? "c" : "-";
    }

    /** Takes one snapshot at {@code now} and notes the milestones it shows for the first time. */
    void snapshot(long now) {
        int n = nodes.size();
        peers = new int[n];
        mesh = new int[n];
        int[] parent = new int[n];
        Arrays.setAll(parent, i -> i);
        for (int i = 0; i < n; i++) {
            WakuNode node = nodes.get(i);
            for (RelayPeer p : node.relay().peers()) {
                if (indexOf.containsKey(p.peerId().toString()) && p.topics().contains(topic)) {
                    peers[i]++;
                }
            }
            for (var peer : node.relay().mesh().getOrDefault(topic, List.of())) {
                Integer j = indexOf.get(peer.toString());
                if (j != null) {
                    mesh[i]++;
                    union(parent, i, j);
                }
            }
        }
        boolean connected = true;
        for (int i = 1; i < n; i++) {
            connected &= find(parent, i) == find(parent, 0);
        }
        note("all_have_relay_peer_ms", min(peers) >= 1, now);
        note("all_have_mesh_peer_ms", min(mesh) >= 1, now);
        note("mesh_connected_ms", connected, now);
        note("full_mesh_ms", min(mesh) >= meshTarget, now);
        note("all_found_all_ms", min(peers) >= n - 1, now);
    }

    private void note(String milestone, boolean seen, long now) {
        if (seen && !reached.containsKey(milestone)) {
            reached.put(milestone, (now - t0) / 1_000_000);
        }
    }

    /** Every milestone in order, -1 where not reached. */
    Map<String, Object> milestones() {
        Map<String, Object> m = new LinkedHashMap<>();
        MILESTONES.forEach(k -> m.put(k, reached.getOrDefault(k, -1L)));
        return m;
    }

    /** True when {@code row} (of {@code discover}) reached every milestone. */
    static boolean formed(ResultRow row) {
        return MILESTONES.stream().allMatch(k -> row.extras().get(k) instanceof Long ms && ms >= 0);
    }

    /** The relay peers (of the topic) and mesh sizes of the last snapshot: least, median, most over the nodes. */
    Map<String, Object> degrees() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("relay_peers_min", min(peers));
        m.put("relay_peers_median", median(peers));
        m.put("relay_peers_max", max(peers));
        m.put("mesh_min", min(mesh));
        m.put("mesh_median", median(mesh));
        m.put("mesh_max", max(mesh));
        m.put("pairs_not_peers", unconnectedPairs().size());
        return m;
    }

    private static int find(int[] parent, int i) {
        while (parent[i] != i) {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        return i;
    }

    private static void union(int[] parent, int a, int b) {
        parent[find(parent, a)] = find(parent, b);
    }

    private static int min(int[] v) {
        return Arrays.stream(v).min().orElse(0);
    }

    private static int max(int[] v) {
        return Arrays.stream(v).max().orElse(0);
    }

    private static int median(int[] v) {
        int[] s = v.clone();
        Arrays.sort(s);
        return s.length == 0 ? 0 : s[(s.length - 1) / 2];
    }
}
