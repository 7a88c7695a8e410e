package io.wakurelay.discovery.discv5;

import io.wakurelay.discovery.enr.Enr;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * An iterative Kademlia lookup (discv5-theory "Lookup"): starting from the {@value #K} table nodes closest to the
 * target, {@value #ALPHA} FINDNODE requests at a time go to the closest nodes not yet asked, each for the log distance
 * of the target from that node and the two beside it (as go-ethereum asks); the answers feed the candidates, and the
 * lookup ends when the {@value #K} closest have all been asked or after {@value #MAX_QUERIES} requests. A node that
 * answers proved it is alive and enters the table. The result is every verified record met (at most
 * {@value #MAX_SEEN}). Runs on the service's loop.
 */
final class Lookup {

    static final int ALPHA = 3;
    static final int K = RoutingTable.BUCKET_SIZE;
    static final int MAX_QUERIES = 24;
    static final int MAX_SEEN = 256;

    private final Discv5Service service;
    private final RoutingTable table;
    private final byte[] target;
    private final byte[] localId;
    private final Map<String, NodeEntry> candidates = new LinkedHashMap<>();
    private final Map<String, Enr> seen = new LinkedHashMap<>();
    private final Set<String> asked = new HashSet<>();
    private final CompletableFuture<List<Enr>> result = new CompletableFuture<>();
    private int inFlight;
    private int queries;

    Lookup(Discv5Service service, RoutingTable table, byte[] target, byte[] localId) {
        this.service = service;
        this.table = table;
        this.target = target.clone();
        this.localId = localId;
    }

    CompletableFuture<List<Enr>> run() {
        for (NodeEntry node : table.closest(target, K)) {
            candidates.put(node.idHex(), node);
            seen.put(node.idHex(), node.enr());
        }
        step();
        return result;
    }

    private void step() {
        while (inFlight < ALPHA && queries < MAX_QUERIES) {
            NodeEntry next = closestUnasked();
            if (next == null) {
                break;
            }
            asked.add(next.idHex());
            inFlight++;
            queries++;
            service.findNode(next, distances(next)).whenComplete((records, error) -> {
                inFlight--;
                if (error == null) {
                    table.add(next);
                    records.forEach(this::offer);
                }
                step();
            });
        }
        if (inFlight == 0 && !result.isDone()) {
            result.complete(List.copyOf(seen.values()));
        }
    }

    private void offer(Enr record) {
        byte[] id = record.nodeId();
        if (Arrays.equals(id, localId)) {
            return;
        }
        String key = NodeIds.hex(id);
        Enr present = seen.get(key);
        if (present == null && seen.size() >= MAX_SEEN) {
            return;
        }
        if (present == null || record.seq() > present.seq()) {
            seen.put(key, record);
            NodeEntry.of(record).ifPresent(node -> candidates.put(key, node));
        }
    }

    private NodeEntry closestUnasked() {
        List<NodeEntry> sorted = new ArrayList<>(candidates.values());
        sorted.sort(Comparator.comparing(NodeEntry::id, (a, b) -> NodeIds.compareDistance(target, a, b)));
        for (NodeEntry node : sorted.subList(0, Math.min(K, sorted.size()))) {
            if (!asked.contains(node.idHex())) {
                return node;
            }
        }
        return null;
    }

    private List<Integer> distances(NodeEntry node) {
        int distance = NodeIds.logDistance(target, node.id());
        List<Integer> distances = new ArrayList<>(3);
        distances.add(Math.max(distance, 1));
        if (distance + 1 <= 256) {
            distances.add(distance + 1);
        }
        if (distance - 1 >= 1) {
            distances.add(distance - 1);
        }
        return distances;
    }
}
