package io.wakurelay.node.config;

import io.soabase.recordbuilder.core.RecordBuilder;
import java.time.Duration;
import java.util.Objects;

/**
 * The peer manager (docs/discovery.md#peer-manager): what discovery finds is offered to it, and it alone dials.
 * The defaults are nwaku's ({@code peer_manager.nim}).
 *
 * @param ratio                {@code --relay-service-ratio}: the split of {@code --max-connections} between relay
 *                             and service peers; of the relay share a third is the outbound target, the rest inbound
 * @param storeCapacity        {@code --peer-store-capacity}: the most candidate peers kept; 0: five times
 *                             {@code --max-connections}, nwaku's default
 * @param initialBackoff       the wait after a peer's first failed dial (nwaku's {@code InitialBackoffInSec}, 120 s)
 * @param backoffFactor        each further failure multiplies the wait by this (nwaku's {@code BackoffFactor}, 4)
 * @param maxFailedAttempts    a peer that failed this many dials in a row is not dialled again, and is the first to
 *                             leave a full store (nwaku's {@code MaxFailedAttempts}, 5)
 * @param maxParallelDials     dials under way at once (nwaku's {@code MaxParallelDials}, 10)
 * @param connectivityInterval the longest pause between two rounds of the connectivity loop (nwaku's
 *                             {@code ConnectivityLoopInterval}, 30 s; shorter the further the node is from its
 *                             targets, at least {@link #MIN_ROUND_PAUSE})
 * @param dialTimeout          one dial, all of a record's addresses tried in turn (nwaku's {@code DefaultDialTimeout}),
 *                             the resolution of their DNS names included
 * @param dialPrivatePeers     {@code --dial-private-peers}: dial discovered records' private and loopback addresses
 *                             whatever this node's own addresses are; off, only when this node's are such too (go-libp2p's
 *                             address filters; unroutable ones never)
 */
@RecordBuilder
public record PeerManagerConfig(RelayServiceRatio ratio, int storeCapacity, Duration initialBackoff, int backoffFactor,
                                int maxFailedAttempts, int maxParallelDials, Duration connectivityInterval,
                                Duration dialTimeout, boolean dialPrivatePeers) {
    /** nwaku's floor of the dynamic pause between rounds. */
    public static final Duration MIN_ROUND_PAUSE = Duration.ofSeconds(1);

    public static final PeerManagerConfig DEFAULTS = new PeerManagerConfig(RelayServiceRatio.DEFAULTS, 0,
            Duration.ofSeconds(120), 4, 5, 10, Duration.ofSeconds(30), Duration.ofSeconds(10), false);

    public PeerManagerConfig {
        Objects.requireNonNull(ratio, "ratio");
        if (storeCapacity < 0) {
            throw new IllegalArgumentException("--peer-store-capacity must not be negative, was " + storeCapacity);
        }
        positive("initialBackoff", initialBackoff);
        positive("connectivityInterval", connectivityInterval);
        positive("dialTimeout", dialTimeout);
        if (backoffFactor < 1 || maxFailedAttempts < 1 || maxParallelDials < 1) {
            throw new IllegalArgumentException("backoffFactor, maxFailedAttempts and maxParallelDials must be >= 1");
        }
        // nwaku refuses a longest backoff over a week: the wait would overflow or mean "never"
        Duration longest = backoff(initialBackoff, backoffFactor, maxFailedAttempts);
        if (longest.compareTo(Duration.ofDays(7)) > 0) {
            throw new IllegalArgumentException("the longest dial backoff must not exceed a week, was " + longest);
        }
    }

    /** The capacity of the candidate store for a host of {@code maxConnections}. */
    public int storeCapacity(int maxConnections) {
        return storeCapacity == 0 ? 5 * maxConnections : storeCapacity;
    }

    /** nwaku's {@code calculateBackoff}: none before a failure, then initial × factor^(failures − 1). */
    public Duration backoff(int failedAttempts) {
        return backoff(initialBackoff, backoffFactor, failedAttempts);
    }

    private static Duration backoff(Duration initialBackoff, int backoffFactor, int failedAttempts) {
        if (failedAttempts <= 0) {
            return Duration.ZERO;
        }
        double seconds = initialBackoff.toMillis() * Math.pow(backoffFactor, failedAttempts - 1) / 1000.0;
        return seconds > Duration.ofDays(365).toSeconds() ? Duration.ofDays(365)
                : Duration.ofMillis((long) (seconds * 1000));
    }

    private static void positive(String name, Duration d) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, was " + d);
        }
    }

    public PeerManagerConfigBuilder toBuilder() {
        return PeerManagerConfigBuilder.builder(this);
    }
}
