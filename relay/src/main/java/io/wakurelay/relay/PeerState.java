package io.wakurelay.relay;

import io.wakurelay.p2p.connection.Connection;
import io.wakurelay.p2p.crypto.PeerId;
import reactor.core.publisher.Sinks;

import java.net.InetAddress;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * What the router knows of one connected relay peer. Mutable fields are guarded by the router's lock. Each of them
 * is bounded whatever the peer sends: its topics by {@code maxTopics}, its backoffs by the topics this node relays
 * (GRAFTs and PRUNEs for others are ignored), its IDONTWANT ids by {@link DontWantSet}'s capacity.
 */
final class PeerState {
    final PeerId id;
    final Connection connection;
    final boolean outbound;
    final InetAddress address;
    final PeerSender sender;
    final PeerScore score;
    final Set<String> topics = new HashSet<>();
    final Map<String, Long> backoffUntilNanos = new HashMap<>();
    final DontWantSet dontWant;
    final ControlBudget budget;
    private final double rejectionsDecay;
    /**
     * Completes when the peer's first RPC arrived (its subscriptions: it says them as its relay stream opens) or the
     * peer left the router, so that a caller who connected it can wait until a publish reaches it.
     */
    final Sinks.Empty<Void> heard = Sinks.empty();
    /** Confirmations that the peer read this node's subscription changes ({@link ReadConfirmations}). */
    final ReadConfirmations.PeerReads reads = new ReadConfirmations.PeerReads();
    /** Its messages held by the validation stage; guarded by the {@code ValidationRoom}'s monitor. */
    int verifications;
    /** Validator rejections of its messages and copies, fading as P₄ does. */
    double rejections;
    /** Disconnected for its rejections: counted once. */
    boolean rejectionsDisconnected;
    /** The relay stream the peer opened to this node; read and written on the connection's event loop only. */
    RelayStreamReader inbound;
    /**
     * The state of the same peer on the connection that replaced this one's (a simultaneous open), once replaced:
     * what a stream of the old connection still reads is the peer's, and goes there.
     */
    volatile PeerState replacedBy;

    /** This peer's state now: this one, or the one that replaced it. */
    PeerState current() {
        PeerState p = this;
        while (p.replacedBy != null) {
            p = p.replacedBy;
        }
        return p;
    }

    PeerState(PeerId id, Connection connection, InetAddress address, PeerSender sender, PeerScore score,
              RelayConfig config) {
        this.id = id;
        this.connection = connection;
        this.outbound = connection != null && connection.isOutbound();
        this.address = address;
        this.sender = sender;
        this.score = score;
        this.dontWant = new DontWantSet(config.peerLimits().iDontWantTtl(), config.peerLimits().maxDontWantIds());
        this.budget = new ControlBudget(config);
        this.rejectionsDecay = config.scoring().invalidMessageDeliveriesDecay();
    }

    boolean inBackoff(String topic, long nowNanos) {
        Long until = backoffUntilNanos.get(topic);
        return until != null && nowNanos < until;
    }

    void backoff(String topic, long untilNanos) {
        backoffUntilNanos.merge(topic, untilNanos, Math::max);
    }

    /** A decay interval passed: the score fades, and so does the count of its rejected messages. */
    void decay() {
        score.decay();
        rejections *= rejectionsDecay;
    }

    /**
     * The validator rejected a message of this peer's (or its copy of one): true once, when the rejections reach
     * {@code bound} and the peer is to be disconnected.
     */
    boolean rejectedPast(int bound) {
        rejections += 1;
        if (rejections >= bound && !rejectionsDisconnected) {
            rejectionsDisconnected = true;
            return true;
        }
        return false;
    }

    /** A heartbeat: the control budget starts again, the oldest IDONTWANT ids and the past backoffs leave. */
    void heartbeat(long nowNanos) {
        budget.refill();
        dontWant.heartbeat();
        backoffUntilNanos.values().removeIf(until -> until <= nowNanos);
    }

    @Override
    public String toString() {
        return id.toString();
    }

    /** The peer's IP address, for the IP colocation factor of its score; null when it has none (not a socket). */
    static InetAddress addressOf(Connection connection) {
        if (connection.remoteAddress() == null) {
            return null;
        }
        try {
            var socket = connection.remoteAddress().toSocketAddress();
            return socket.isUnresolved() ? null : socket.getAddress();
        } catch (RuntimeException e) {
            return null;
        }
    }
}
