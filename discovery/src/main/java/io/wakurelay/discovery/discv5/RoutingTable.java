package io.wakurelay.discovery.discv5;

import io.wakurelay.discovery.enr.Enr;
import java.net.InetAddress;
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
 * and the newcomer waits as a replacement until a liveness check removes one. As in nim-eth, at most
 * {@code bucketIpLimit} entries of a bucket (its nodes and replacements together) and {@code tableIpLimit} of the
 * whole table share one public IP address ({@link IpLimits}): nodes past it are refused, so many node ids behind one
 * address cannot fill the table. Not thread-safe: the service uses it from its event loop only.
 */
public final class RoutingTable {

    public static final int BUCKET_SIZE = 16;
    public static final int REPLACEMENTS = 4;
    static final int BUCKETS = 256;
    /** nwaku's {@code --discv5-table-ip-limit} and {@code --discv5-bucket-ip-limit} defaults (nim-eth's). */
    public static final int DEFAULT_TABLE_IP_LIMIT = 10;
    public static final int DEFAULT_BUCKET_IP_LIMIT = 2;

    private final byte[] localId;
    private final List<Map<String, NodeEntry>> buckets = new ArrayList<>(BUCKETS);
    private final List<Deque<NodeEntry>> replacements = new ArrayList<>(BUCKETS);
    private final List<IpLimits> bucketIps = new ArrayList<>(BUCKETS);
    private final IpLimits tableIps;
    private int size;

    public RoutingTable(byte[] localId) {
        this(localId, DEFAULT_TABLE_IP_LIMIT, DEFAULT_BUCKET_IP_LIMIT);
    }

    public RoutingTable(byte[] localId, int tableIpLimit, int bucketIpLimit) {
        if (tableIpLimit < 1 || bucketIpLimit < 1) {
            throw new IllegalArgumentException("the IP limits must be at least 1, were " + tableIpLimit + " (table) and "
                    + bucketIpLimit + " (bucket)");
        }
        this.localId = localId.clone();
        this.tableIps = new IpLimits(tableIpLimit);
        for (int i = 0; i < BUCKETS; i++) {
            buckets.add(new LinkedHashMap<>());
            replacements.add(new ArrayDeque<>());
            bucketIps.add(new IpLimits(bucketIpLimit));
        }
    }

    /** What {@link #add} did; the two limits are refusals for the node's IP address. */
    public enum Added { ADDED, UPDATED, REPLACEMENT, REFUSED, BUCKET_IP_LIMIT, TABLE_IP_LIMIT }

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
        NodeEntry present = bucket.get(key);
        if (present != null) {
            NodeEntry kept = newer(present, node);
            Added moved = kept == present ? Added.UPDATED : reaccount(distance, present, kept);
            if (moved == Added.UPDATED) {
                bucket.remove(key);
                bucket.put(key, kept);
            }
            return moved;
        }
        Deque<NodeEntry> waiting = replacements.get(distance - 1);
        NodeEntry queued = waiting.stream().filter(n -> n.idHex().equals(key)).findFirst().orElse(null);
        if (queued == null) {
            Added refused = account(distance, node);
            if (refused != null) {
                return refused;
            }
        } else {
            Added moved = reaccount(distance, queued, node);
            if (moved != Added.UPDATED) {
                return moved;
            }
            waiting.remove(queued);
        }
        if (bucket.size() < BUCKET_SIZE) {
            bucket.put(key, node);
            size++;
            return Added.ADDED;
        }
        if (waiting.size() >= REPLACEMENTS) {
            unaccount(distance, waiting.removeFirst()); // the oldest candidate goes
        }
        waiting.addLast(node);
        return Added.REPLACEMENT;
    }

    /** Counts the node's IP in its bucket and the table; the limit met, or null when it was counted. */
    private Added account(int distance, NodeEntry node) {
        InetAddress ip = node.udp().getAddress();
        if (!bucketIps.get(distance - 1).tryAdd(ip)) {
            return Added.BUCKET_IP_LIMIT;
        }
        if (!tableIps.tryAdd(ip)) {
            bucketIps.get(distance - 1).remove(ip);
            return Added.TABLE_IP_LIMIT;
        }
        return null;
    }

    private void unaccount(int distance, NodeEntry node) {
        InetAddress ip = node.udp().getAddress();
        bucketIps.get(distance - 1).remove(ip);
        tableIps.remove(ip);
    }

    /** A node's entry replaced by {@code next}: its IP counted anew when it changed; UPDATED, or the limit met. */
    private Added reaccount(int distance, NodeEntry previous, NodeEntry next) {
        if (previous.udp().getAddress().equals(next.udp().getAddress())) {
            return Added.UPDATED;
        }
        Added refused = account(distance, next);
        if (refused != null) {
            return refused;
        }
        unaccount(distance, previous);
        return Added.UPDATED;
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
        NodeEntry removed = buckets.get(distance - 1).remove(NodeIds.hex(id));
        if (removed == null) {
            return false;
        }
        unaccount(distance, removed); // a replacement moving in was counted when it was queued
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
