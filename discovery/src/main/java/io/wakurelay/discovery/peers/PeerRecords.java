package io.wakurelay.discovery.peers;

import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.discovery.enr.EnrFormatException;
import io.wakurelay.discovery.enr.RelayShards;
import io.wakurelay.p2p.crypto.PeerId;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.random.RandomGenerator;

/**
 * The records of other nodes this node knows, one per peer, at most {@code capacity}: what peer exchange serves.
 * A record replaces the one kept for its peer only when its sequence number is higher (a peer's newer record wins,
 * an older copy relayed by someone else does not). When full, a new peer's record pushes out the record that was
 * offered longest ago (offering a peer's record again, even the same one, makes it the newest). Thread-safe.
 */
public final class PeerRecords {
    /** What {@link #offer} did. */
    public enum Offer {
        /** The peer was not known: its record is kept (perhaps pushing out the oldest). */
        ADDED,
        /** The record is newer than the one kept: it replaces it. */
        REPLACED,
        /** The record kept is the same or newer: it stays, and counts as the newest offered. */
        KEPT
    }

    private final int capacity;
    private final LinkedHashMap<PeerId, Enr> records = new LinkedHashMap<>();
    private long evictions;

    public PeerRecords(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("a record cache holds at least one record, was " + capacity);
        }
        this.capacity = capacity;
    }

    public int capacity() {
        return capacity;
    }

    /** Keeps {@code record} as its peer's, unless a record of that peer with a higher sequence number is kept. */
    public synchronized Offer offer(Enr record) {
        PeerId peer = record.peerId();
        Enr kept = records.remove(peer); // removed and put back: the insertion order is the offer order
        if (kept != null) {
            boolean newer = record.seq() > kept.seq();
            records.put(peer, newer ? record : kept);
            return newer ? Offer.REPLACED : Offer.KEPT;
        }
        if (records.size() >= capacity) {
            Iterator<PeerId> oldest = records.keySet().iterator();
            oldest.next();
            oldest.remove();
            evictions++;
        }
        records.put(peer, record);
        return Offer.ADDED;
    }

    public synchronized Optional<Enr> get(PeerId peer) {
        return Optional.ofNullable(records.get(peer));
    }

    public synchronized boolean remove(PeerId peer) {
        return records.remove(peer) != null;
    }

    public synchronized int size() {
        return records.size();
    }

    /** Records pushed out by newer peers' records since the start. */
    public synchronized long evictions() {
        return evictions;
    }

    /**
     * Up to {@code max} records that {@code eligible} accepts, each eligible record equally likely (reservoir
     * sampling, as nwaku picks the records it serves), in no particular order. {@code eligible} is called without
     * this cache's lock held (on a copy of the records), so it may consult other locked state.
     */
    public List<Enr> sample(int max, Predicate<Enr> eligible, RandomGenerator random) {
        if (max <= 0) {
            return new ArrayList<>();
        }
        List<Enr> all;
        synchronized (this) {
            all = new ArrayList<>(records.values());
        }
        List<Enr> chosen = new ArrayList<>(Math.min(max, all.size()));
        int seen = 0;
        for (Enr record : all) {
            if (!eligible.test(record)) {
                continue;
            }
            if (chosen.size() < max) {
                chosen.add(record);
            } else {
                int j = random.nextInt(seen + 1);
                if (j < max) {
                    chosen.set(j, record);
                }
            }
            seen++;
        }
        return chosen;
    }

    /**
     * True when {@code record} does not say it is of another cluster than {@code cluster}: a record without
     * {@code rs}/{@code rsv} is taken to be of any cluster, as nwaku takes it; one whose shards field does not
     * decode is not.
     */
    public static boolean ofCluster(Enr record, int cluster) {
        try {
            Optional<RelayShards> shards = record.relayShards();
            return shards.isEmpty() || shards.get().cluster() == cluster;
        } catch (EnrFormatException e) {
            return false;
        }
    }
}
