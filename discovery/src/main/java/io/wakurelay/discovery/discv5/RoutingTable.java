package io.wakurelay.discovery.discv5;

import io.wakurelay.discovery.enr.Enr;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

/**
 * The Kademlia table: 256 buckets, bucket d holding up to {@value #BUCKET_SIZE} nodes at log distance d from the local
 * id, least recently seen first, each with a replacement list of up to {@value #REPLACEMENTS} nodes that wait for a
 * place. So the table never holds more than 256 × (16 + 4) records. A node enters when it proved alive (answered, or
 * completed a handshake) or was given at start; a full bucket keeps its old nodes (they are the ones proven to last)
 * and the newcomer waits as a replacement until a liveness check removes one. Not thread-safe: the service uses it
 * from its event loop only.
 */
public final class RoutingTable {

    public static final int BUCKET_SIZE = 16;
    public static final int REPLACEMENTS = 4;
    static final int BUCKETS = 256;

    private final byte[] localId;
    private final List<Map<String, NodeEntry>> buckets = new ArrayList<>(BUCKETS);
    private final List<Deque<NodeEntry>> replacements = new ArrayList<>(BUCKETS);
    private int size;

    public RoutingTable(byte[] localId) {
        this.localId = localId.clone();
        for (int i = 0; i < BUCKETS; i++) {
            buckets.add(new LinkedHashMap<>());
            replacements.add(new ArrayDeque<>());
        }
    }

    public enum Added { ADDED, UPDATED, REPLACEMENT, REFUSED }

    /**
     * Adds a live node, or refreshes it (a newer record replaces an older one; it moves to the end as the most
     * recently seen). A full bucket puts it on the replacement list instead.
     */
    public Added add(NodeEntry node) {
        int distance = NodeIds.logDistance(localId, node.id());
        if (distance == 0) {
            return Added.REFUSED; // ourselves
        }
        Map<String, NodeEntry> bucket = buckets.get(distance - 1);
        String key = node.idHex();
        NodeEntry present = bucket.remove(key);
        if (present != null) {
            bucket.put(key, newer(present, node));
            return Added.UPDATED;
        }
        if (bucket.size() < BUCKET_SIZE) {
            bucket.put(key, node);
            size++;
            return Added.ADDED;
        }
        Deque<NodeEntry> waiting = replacements.get(distance - 1);
        waiting.removeIf(n -> n.idHex().equals(key));
        if (waiting.size() >= REPLACEMENTS) {
            waiting.removeFirst(); // the oldest candidate goes
        }
        waiting.addLast(node);
        return Added.REPLACEMENT;
    }

    private static NodeEntry newer(NodeEntry present, NodeEntry offered) {
        return offered.enr().seq() >= present.enr().seq() ? offered : present;
    }

    /** Removes a node (it failed its liveness check); the newest replacement of its bucket takes its place. */
    public boolean remove(byte[] id) {
        int distance = NodeIds.logDistance(localId, id);
        if (distance == 0) {
            return false;
        }
        if (buckets.get(distance - 1).remove(NodeIds.hex(id)) == null) {
            return false;
        }
        size--;
        NodeEntry replacement = replacements.get(distance - 1).pollLast();
        if (replacement != null) {
            buckets.get(distance - 1).put(replacement.idHex(), replacement);
            size++;
        }
        return true;
    }

    public Optional<NodeEntry> get(byte[] id) {
        int distance = NodeIds.logDistance(localId, id);
        return distance == 0 ? Optional.empty() : Optional.ofNullable(buckets.get(distance - 1).get(NodeIds.hex(id)));
    }

    /** The newest record known of a node, in the table or waiting as a replacement. */
    public Optional<Enr> record(byte[] id) {
        Optional<NodeEntry> node = get(id);
        if (node.isPresent()) {
            return Optional.of(node.get().enr());
        }
        int distance = NodeIds.logDistance(localId, id);
        if (distance == 0) {
            return Optional.empty();
        }
        String key = NodeIds.hex(id);
        return replacements.get(distance - 1).stream().filter(n -> n.idHex().equals(key)).map(NodeEntry::enr)
                .findFirst();
    }

    /** Up to {@code limit} nodes at the given log distances (in the order asked); distance 0 is not here. */
    public List<NodeEntry> atDistances(List<Integer> distances, int limit) {
        List<NodeEntry> out = new ArrayList<>();
        for (int distance : distances) {
            if (distance < 1 || distance > BUCKETS) {
                continue;
            }
            for (NodeEntry node : buckets.get(distance - 1).values()) {
                if (out.size() >= limit) {
                    return out;
                }
                if (!out.contains(node)) {
                    out.add(node);
                }
            }
        }
        return out;
    }

    /** The {@code limit} nodes closest to {@code target}. */
    public List<NodeEntry> closest(byte[] target, int limit) {
        List<NodeEntry> all = new ArrayList<>(size);
        buckets.forEach(bucket -> all.addAll(bucket.values()));
        all.sort(Comparator.comparing(NodeEntry::id, (a, b) -> NodeIds.compareDistance(target, a, b)));
        return all.subList(0, Math.min(limit, all.size()));
    }

    /** The least recently seen node of a random non-empty bucket: the next one to check for liveness. */
    public Optional<NodeEntry> leastRecentlySeen(Random random) {
        List<Map<String, NodeEntry>> filled = buckets.stream().filter(b -> !b.isEmpty()).toList();
        if (filled.isEmpty()) {
            return Optional.empty();
        }
        return filled.get(random.nextInt(filled.size())).values().stream().findFirst();
    }

    public int size() {
        return size;
    }

    public List<NodeEntry> all() {
        List<NodeEntry> all = new ArrayList<>(size);
        buckets.forEach(bucket -> all.addAll(bucket.values()));
        return all;
    }
}
