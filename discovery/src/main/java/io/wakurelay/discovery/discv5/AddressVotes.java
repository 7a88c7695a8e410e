package io.wakurelay.discovery.discv5;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Our external address as the nodes we ping see it: each PONG names the IP and port our PING came from, and counts as
 * one vote of the node that sent it (nim-eth's {@code ip_vote.nim}, after sigp/discv5). A node holds one vote (its
 * latest), so one node, however often it answers, moves nothing; a vote lasts {@link #LIFETIME}; at most
 * {@code capacity} votes are kept (the oldest go first). An address is the majority when at least {@code threshold}
 * votes name it and no other address has as many (nim-eth takes either one of a tie; we take neither).
 */
final class AddressVotes {
    /** nim-eth's {@code IpVoteTimeout}. */
    static final Duration LIFETIME = Duration.ofMinutes(5);
    /** nim-eth's default threshold ({@code IpVote.init()}); at least 2 there and here. */
    static final int DEFAULT_THRESHOLD = 10;

    private record Vote(InetSocketAddress address, long expiresAt) {
    }

    private final int threshold;
    private final int capacity;
    private final Map<String, Vote> votes = new LinkedHashMap<>(); // by node id, oldest first

    AddressVotes(int threshold, int capacity) {
        if (threshold < 2 || capacity < threshold) {
            throw new IllegalArgumentException("an address vote needs a threshold of at least 2 and room for it, was "
                    + threshold + " of " + capacity);
        }
        this.threshold = threshold;
        this.capacity = capacity;
    }

    /** The vote of node {@code nodeId} for {@code address}, replacing its earlier one. */
    void add(byte[] nodeId, InetSocketAddress address, long nowNanos) {
        String key = NodeIds.hex(nodeId);
        votes.remove(key);
        if (votes.size() >= capacity) {
            Iterator<String> oldest = votes.keySet().iterator();
            oldest.next();
            oldest.remove();
        }
        votes.put(key, new Vote(address, nowNanos + LIFETIME.toNanos()));
    }

    /** The address most votes name, when they are at least the threshold and more than any other address has. */
    Optional<InetSocketAddress> majority(long nowNanos) {
        votes.values().removeIf(v -> nowNanos - v.expiresAt() > 0);
        Map<InetSocketAddress, Integer> counts = new HashMap<>();
        votes.values().forEach(v -> counts.merge(v.address(), 1, Integer::sum));
        InetSocketAddress best = null;
        int bestCount = 0;
        boolean tie = false;
        for (Map.Entry<InetSocketAddress, Integer> e : counts.entrySet()) {
            if (e.getValue() > bestCount) {
                best = e.getKey();
                bestCount = e.getValue();
                tie = false;
            } else if (e.getValue() == bestCount) {
                tie = true;
            }
        }
        return best != null && !tie && bestCount >= threshold ? Optional.of(best) : Optional.empty();
    }

    int size() {
        return votes.size();
    }
}
