package io.wakurelay.p2p;

import io.wakurelay.p2p.crypto.PeerId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Which inbound connections are not worth their slot (ADR 0086, after go-libp2p's connection manager and nwaku's
 * peer manager). A connection is, from least to most useful:
 * <ol>
 * <li>{@link Usefulness#UNIDENTIFIED}: identify has not told who the peer is (refused, failed, or not answered yet)
 *     and the peer never used a protocol this host serves (one that did is judged by its streams: identify may be
 *     late on a loaded machine, and use says more than identify);</li>
 * <li>{@link Usefulness#NO_SHARED_PROTOCOL}: its peer names no protocol this host serves and never used one;</li>
 * <li>{@link Usefulness#IDLE}: no stream open now (identify's and ping's do not count);</li>
 * <li>{@link Usefulness#ACTIVE}: streams open.</li>
 * </ol>
 * Protected, never trimmed: outbound connections (this host's own choice), static peers, and the peers a
 * {@link PeerValues} protects (the relay's mesh peers, the services' clients in use).
 *
 * <p>{@link #sweep} closes the connections that are unidentified or share no protocol {@link HostConfig#gracePeriod()}
 * after their upgrade, and those idle for {@link HostConfig#idleTimeout()}, each with its reason
 * ({@code libp2p_disconnects_total{reason}}). {@link #victim} names the connection whose slot a newcomer takes when
 * every inbound slot is held: the least useful one that is not active and past its grace period, or unidentified
 * because its identify failed (an honest peer answers identify within milliseconds); among equals the one worth
 * least ({@link PeerValues#values()}), then the oldest. An active connection is never given up for a newcomer: the
 * peer manager's targets decide how many relay and service peers stay.
 */
final class ConnectionTrimmer {
    private static final Logger log = LoggerFactory.getLogger(ConnectionTrimmer.class);
    static final String UNIDENTIFIED = "unidentified";
    static final String NO_SHARED_PROTOCOL = "no_shared_protocol";
    static final String IDLE = "idle";
    /** The disconnect reason of an upgraded connection whose slot a newcomer took. */
    static final String EVICTED = "evicted";

    enum Usefulness {
        UNIDENTIFIED, NO_SHARED_PROTOCOL, IDLE, ACTIVE
    }

    private final long graceNanos;
    private final long idleNanos;
    private final Supplier<Set<String>> served;
    private final Predicate<PeerId> isStatic;
    private final List<PeerValues> values = new CopyOnWriteArrayList<>();

    /**
     * @param served   the protocols the host serves now
     * @param isStatic whether a peer is one of the host's static peers
     */
    ConnectionTrimmer(Duration gracePeriod, Duration idleTimeout, Supplier<Set<String>> served,
                      Predicate<PeerId> isStatic) {
        this.graceNanos = gracePeriod.toNanos();
        this.idleNanos = idleTimeout.toNanos();
        this.served = served;
        this.isStatic = isStatic;
    }

    void add(PeerValues v) {
        values.add(v);
    }

    void remove(PeerValues v) {
        values.remove(v);
    }

    /** How often {@link #sweep} should run: a quarter of the shorter bound, between 100 ms and 1 s. */
    Duration sweepPeriod() {
        long quarter = Math.min(graceNanos, idleNanos) / 4;
        return Duration.ofNanos(Math.max(Duration.ofMillis(100).toNanos(), Math.min(quarter,
                Duration.ofSeconds(1).toNanos())));
    }

    Usefulness usefulness(HostConnection c) {
        ConnectionUse use = c.use();
        if (use.identify() != ConnectionUse.Identify.DONE && !use.used()) {
            return Usefulness.UNIDENTIFIED;
        }
        if (use.identify() == ConnectionUse.Identify.DONE && !use.used() && !namesServed(c.record().protocols())) {
            return Usefulness.NO_SHARED_PROTOCOL;
        }
        return use.openStreams() == 0 ? Usefulness.IDLE : Usefulness.ACTIVE;
    }

    private boolean namesServed(Set<String> protocols) {
        for (String p : served.get()) {
            if (!ConnectionUse.BASICS.contains(p) && protocols.contains(p)) {
                return true;
            }
        }
        return false;
    }

    /** Closes the inbound connections past their bounds that nobody protects; returns how many. */
    int sweep(List<HostConnection> inbound, long nowNanos) {
        Map<HostConnection, String> due = new HashMap<>();
        for (HostConnection c : inbound) {
            if (!c.isOpen()) {
                continue;
            }
            boolean pastGrace = nowNanos - c.establishedNanos() >= graceNanos;
            Usefulness u = usefulness(c);
            if (pastGrace && u == Usefulness.UNIDENTIFIED) {
                due.put(c, UNIDENTIFIED);
            } else if (pastGrace && u == Usefulness.NO_SHARED_PROTOCOL) {
                due.put(c, NO_SHARED_PROTOCOL);
            } else if (c.use().idleNanos(nowNanos) >= idleNanos) {
                due.put(c, IDLE);
            }
        }
        if (due.isEmpty()) {
            return 0;
        }
        Set<PeerId> kept = protectedPeers();
        int closed = 0;
        for (Map.Entry<HostConnection, String> e : due.entrySet()) {
            HostConnection c = e.getKey();
            if (!kept.contains(c.remotePeer()) && !isStatic.test(c.remotePeer())) {
                log.atDebug().addKeyValue("peer", String.valueOf(c.remotePeer()))
                        .addKeyValue("address", String.valueOf(c.remoteAddress())).addKeyValue("reason", e.getValue())
                        .log("closing a connection");
                c.close(e.getValue());
                closed++;
            }
        }
        return closed;
    }

    /**
     * The inbound connection whose slot a newcomer may take, or null when every one is active, in its grace period
     * or protected.
     */
    HostConnection victim(List<HostConnection> inbound, long nowNanos) {
        List<HostConnection> candidates = new ArrayList<>();
        Map<HostConnection, Usefulness> of = new HashMap<>();
        for (HostConnection c : inbound) {
            Usefulness u = usefulness(c);
            boolean failed = u == Usefulness.UNIDENTIFIED && c.use().identify() == ConnectionUse.Identify.FAILED;
            if (c.isOpen() && u != Usefulness.ACTIVE && (failed || nowNanos - c.establishedNanos() >= graceNanos)) {
                candidates.add(c);
                of.put(c, u);
            }
        }
        if (candidates.isEmpty()) {
            return null;
        }
        Set<PeerId> kept = protectedPeers();
        Map<PeerId, Integer> worth = worth();
        return candidates.stream()
                .filter(c -> !kept.contains(c.remotePeer()) && !isStatic.test(c.remotePeer()))
                .min(Comparator.<HostConnection, Usefulness>comparing(of::get)
                        .thenComparingInt(c -> worth.getOrDefault(c.remotePeer(), 0))
                        .thenComparingLong(HostConnection::establishedNanos))
                .orElse(null);
    }

    private Set<PeerId> protectedPeers() {
        Set<PeerId> kept = new HashSet<>();
        for (PeerValues v : values) {
            try {
                kept.addAll(v.protectedPeers());
            } catch (RuntimeException e) {
                log.warn("peer values failed", e);
            }
        }
        return kept;
    }

    private Map<PeerId, Integer> worth() {
        Map<PeerId, Integer> sum = new HashMap<>();
        for (PeerValues v : values) {
            try {
                v.values().forEach((p, n) -> sum.merge(p, n, Integer::sum));
            } catch (RuntimeException e) {
                log.warn("peer values failed", e);
            }
        }
        return sum;
    }
}
