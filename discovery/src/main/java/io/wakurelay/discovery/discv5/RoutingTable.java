package io.wakurelay.discovery.discv5;

import io.wakurelay.discovery.enr.Enr;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;

/**
 * The Kademlia table: the nodes at log distance d from the local id are held in buckets of up to
 * {@value #BUCKET_SIZE} nodes, least recently seen first, each with a replacement list of up to
 * {@value #REPLACEMENTS} nodes that wait for a place. A node enters when it proved alive (answered, or completed a
 * handshake) or was given at start; a full bucket keeps its old nodes (they are the ones proven to last) and the
 * newcomer waits as a replacement until a liveness check removes one.
 *
 * <p><b>Bits per hop.</b> nim-eth's table is a tree of buckets that splits a full bucket when it holds the local id
 * or when its depth (the prefix its range shares) is not a multiple of {@code bitsPerHop}. With 1 (nwaku's default)
 * only the local id's bucket splits, which gives one bucket per log distance: this table's layout. With b above 1 the
 * bucket at depth k = 257 − d ends up split into 2^s buckets, s = (the next multiple of b from k) − k, by the s bits
 * after the first bit where the id differs from ours; this table has those buckets from the start (a bucket splits
 * only when full, so both hold the same nodes). More nodes far away make lookups take fewer hops. The table then
 * holds at most 256 × 16 × 2^(b−1) nodes (b is at most {@value #MAX_BITS_PER_HOP}).
 *
 * <p><b>IP limits.</b> As in nim-eth, at most {@code bucketIpLimit} entries of a bucket (its nodes and replacements
 * together) and {@code tableIpLimit} of the whole table share one public IP address ({@link IpLimits}): nodes past it
 * are refused, so many node ids behind one address cannot fill the table.
 *
 * <p>Not thread-safe: the service uses it from its event loop only.
 */
public final class RoutingTable {

    public static final int BUCKET_SIZE = 16;
    public static final int REPLACEMENTS = 4;
    static final int BUCKETS = 256;
    /** nwaku's {@code --discv5-table-ip-limit} and {@code --discv5-bucket-ip-limit} defaults (nim-eth's). */
    public static final int DEFAULT_TABLE_IP_LIMIT = 10;
    public static final int DEFAULT_BUCKET_IP_LIMIT = 2;
    /** nwaku's {@code --discv5-bits-per-hop} default; nim-eth's own default is 5. */
    public static final int DEFAULT_BITS_PER_HOP = 1;
    public static final int MAX_BITS_PER_HOP = 5;

    private final byte[] localId;
    private final int bitsPerHop;
    private final int bucketIpLimit;
    /** By (distance − 1) × 256 + the bucket's part of that distance; made when first used. */
    private final NavigableMap<Integer, KBucket> buckets = new TreeMap<>();
    private final IpLimits tableIps;
    private int size;

    public RoutingTable(byte[] localId) {
        this(localId, DEFAULT_TABLE_IP_LIMIT, DEFAULT_BUCKET_IP_LIMIT, DEFAULT_BITS_PER_HOP);
    }

    public RoutingTable(byte[] localId, int tableIpLimit, int bucketIpLimit, int bitsPerHop) {
        if (tableIpLimit < 1 || bucketIpLimit < 1) {
            throw new IllegalArgumentException("the IP limits must be at least 1, were " + tableIpLimit
                    + " (table) and " + bucketIpLimit + " (bucket)");
        }
        if (bitsPerHop < 1 || bitsPerHop > MAX_BITS_PER_HOP) {
            throw new IllegalArgumentException("bits per hop must be 1.." + MAX_BITS_PER_HOP + ", was " + bitsPerHop);
        }
        this.localId = localId.clone();
        this.bitsPerHop = bitsPerHop;
        this.bucketIpLimit = bucketIpLimit;
        this.tableIps = new IpLimits(tableIpLimit);
    }

    /** What {@link #add} did; the two limits are refusals for the node's IP address. */
    public enum Added { ADDED, UPDATED, REPLACEMENT, REFUSED, BUCKET_IP_LIMIT, TABLE_IP_LIMIT }

    /** How many bits after the first differing one divide the buckets at {@code distance} (0 with 1 bit per hop). */
    int splitBits(int distance) {
        int depth = BUCKETS + 1 - distance;
        int split = Math.min(BUCKETS, (depth + bitsPerHop - 1) / bitsPerHop * bitsPerHop);
        return split - depth;
    }

    /** The key of the bucket of {@code id}; -1 for ourselves. */
    private int keyOf(byte[] id) {
        int distance = NodeIds.logDistance(localId, id);
        if (distance == 0) {
            return -1;
        }
        int part = 0;
        int first = BUCKETS - distance; // the index, from the top, of the first bit that differs
        for (int i = 1; i <= splitBits(distance); i++) {
            int bit = first + i;
            int x = (id[bit / 8] ^ localId[bit / 8]) >> (7 - bit % 8) & 1;
            part = part << 1 | x;
        }
        return (distance - 1) * 256 + part;
    }

    private KBucket bucket(int key) {
        return buckets.computeIfAbsent(key, k -> new KBucket(bucketIpLimit));
    }

    /**
     * Adds a live node, or refreshes it (a newer record replaces an older one; it moves to the end as the most
     * recently seen). A full bucket puts it on the replacement list instead.
     */
    public Added add(NodeEntry node) {
        int key = keyOf(node.id());
        if (key < 0) {
            return Added.REFUSED; // ourselves
        }
        KBucket bucket = bucket(key);
        String id = node.idHex();
        NodeEntry present = bucket.nodes.get(id);
        if (present != null) {
            NodeEntry kept = newer(present, node);
            Added moved = kept == present ? Added.UPDATED : reaccount(bucket, present, kept);
            if (moved == Added.UPDATED) {
                bucket.nodes.remove(id);
                bucket.nodes.put(id, kept);
            }
            return moved;
        }
        NodeEntry queued = bucket.replacements.stream().filter(n -> n.idHex().equals(id)).findFirst().orElse(null);
        if (queued == null) {
            Added refused = account(bucket, node);
            if (refused != null) {
                return refused;
            }
        } else {
            Added moved = reaccount(bucket, queued, node);
            if (moved != Added.UPDATED) {
                return moved;
            }
            bucket.replacements.remove(queued);
        }
        if (bucket.nodes.size() < BUCKET_SIZE) {
            bucket.nodes.put(id, node);
            size++;
            return Added.ADDED;
        }
        if (bucket.replacements.size() >= REPLACEMENTS) {
            unaccount(bucket, bucket.replacements.removeFirst()); // the oldest candidate goes
        }
        bucket.replacements.addLast(node);
        return Added.REPLACEMENT;
    }

    /** Counts the node's IP in its bucket and the table; the limit met, or null when it was counted. */
    private Added account(KBucket bucket, NodeEntry node) {
        InetAddress ip = node.udp().getAddress();
        if (!bucket.ips.tryAdd(ip)) {
            return Added.BUCKET_IP_LIMIT;
        }
        if (!tableIps.tryAdd(ip)) {
            bucket.ips.remove(ip);
            return Added.TABLE_IP_LIMIT;
        }
        return null;
    }

    private void unaccount(KBucket bucket, NodeEntry node) {
        InetAddress ip = node.udp().getAddress();
        bucket.ips.remove(ip);
        tableIps.remove(ip);
    }

    /** A node's entry replaced by {@code next}: its IP counted anew when it changed; UPDATED, or the limit met. */
    private Added reaccount(KBucket bucket, NodeEntry previous, NodeEntry next) {
        if (previous.udp().getAddress().equals(next.udp().getAddress())) {
            return Added.UPDATED;
        }
        Added refused = account(bucket, next);
        if (refused != null) {
            return refused;
        }
        unaccount(bucket, previous);
        return Added.UPDATED;
    }

    private static NodeEntry newer(NodeEntry present, NodeEntry offered) {
        return offered.enr().seq() >= present.enr().seq() ? offered : present;
    }

    /** Removes a node (it failed its liveness check); the newest replacement of its bucket takes its place. */
    public boolean remove(byte[] id) {
        int key = keyOf(id);
        KBucket bucket = key < 0 ? null : buckets.get(key);
        NodeEntry removed = bucket == null ? null : bucket.nodes.remove(NodeIds.hex(id));
        if (removed == null) {
            return false;
        }
        unaccount(bucket, removed); // a replacement moving in was counted when it was queued
        size--;
        NodeEntry replacement = bucket.replacements.pollLast();
        if (replacement != null) {
            bucket.nodes.put(replacement.idHex(), replacement);
            size++;
        }
        return true;
    }

    public Optional<NodeEntry> get(byte[] id) {
        int key = keyOf(id);
        KBucket bucket = key < 0 ? null : buckets.get(key);
        return bucket == null ? Optional.empty() : Optional.ofNullable(bucket.nodes.get(NodeIds.hex(id)));
    }

    /** The newest record known of a node, in the table or waiting as a replacement. */
    public Optional<Enr> record(byte[] id) {
        int key = keyOf(id);
        KBucket bucket = key < 0 ? null : buckets.get(key);
        if (bucket == null) {
            return Optional.empty();
        }
        String hex = NodeIds.hex(id);
        NodeEntry node = bucket.nodes.get(hex);
        if (node != null) {
            return Optional.of(node.enr());
        }
        return bucket.replacements.stream().filter(n -> n.idHex().equals(hex)).map(NodeEntry::enr).findFirst();
    }

    /** Up to {@code limit} nodes at the given log distances (in the order asked); distance 0 is not here. */
    public List<NodeEntry> atDistances(List<Integer> distances, int limit) {
        List<NodeEntry> out = new ArrayList<>();
        for (int distance : distances) {
            if (distance < 1 || distance > BUCKETS) {
                continue;
            }
            for (KBucket bucket : buckets.subMap((distance - 1) * 256, true, distance * 256, false).values()) {
                for (NodeEntry node : bucket.nodes.values()) {
                    if (out.size() >= limit) {
                        return out;
                    }
                    if (!out.contains(node)) {
                        out.add(node);
                    }
                }
            }
        }
        return out;
    }

    /** The {@code limit} nodes closest to {@code target}. */
    public List<NodeEntry> closest(byte[] target, int limit) {
        List<NodeEntry> all = all();
        all.sort(Comparator.comparing(NodeEntry::id, (a, b) -> NodeIds.compareDistance(target, a, b)));
        return all.subList(0, Math.min(limit, all.size()));
    }

    /** The least recently seen node of a random non-empty bucket: the next one to check for liveness. */
    public Optional<NodeEntry> leastRecentlySeen(Random random) {
        List<KBucket> filled = buckets.values().stream().filter(b -> !b.nodes.isEmpty()).toList();
        if (filled.isEmpty()) {
            return Optional.empty();
        }
        return filled.get(random.nextInt(filled.size())).nodes.values().stream().findFirst();
    }

    public int size() {
        return size;
    }

    public List<NodeEntry> all() {
        List<NodeEntry> all = new ArrayList<>(size);
        buckets.values().forEach(bucket -> all.addAll(bucket.nodes.values()));
        return all;
    }
}
