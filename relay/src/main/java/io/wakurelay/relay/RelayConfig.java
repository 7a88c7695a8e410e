package io.wakurelay.relay;

import io.wakurelay.protocol.ProtocolLimits;
import io.wakurelay.protocol.ProtocolViolation;
import io.wakurelay.protocol.Topics;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Everything a {@link Relay} needs to know, validated when built. docs/relay.md lists the defaults and the memory
 * they allow.
 *
 * @param nodeId                    this node's identifier, announced in Hello; peers keep one connection per id
 * @param listenAddress             where to accept peer connections (port 0 = any free port); null = do not listen
 * @param staticPeers               peers to dial and to redial whenever the connection ends
 * @param pubsubTopics              topics this node subscribes to at start (relayed and delivered locally)
 * @param limits                    frame, message, topic and clock limits
 * @param maxConnections            open peer connections (inbound and outbound, handshaking included)
 * @param handshakeTimeout          time a new connection has to send its Hello
 * @param idleTimeout               a connection that sends nothing for this long is closed; a Ping goes out at half of it
 * @param seenTtl                   how long a message hash is remembered for dedup
 * @param seenCacheCapacity         most hashes remembered (the oldest is forgotten first)
 * @param peerQueueMessages         messages written to one peer and not yet taken by its socket
 * @param peerQueueBytes            bytes of those messages
 * @param maxDropsBeforeDisconnect  consecutive drops a peer may cause before it is disconnected as a slow consumer
 * @param maxInvalidMessagesPerPeer invalid messages a peer may send over one connection before it is disconnected
 * @param reconnectMinBackoff       first wait before redialling a static peer
 * @param reconnectMaxBackoff       longest wait between redials (exponential growth with jitter in between)
 * @param localQueueMessages        accepted envelopes handed to the local consumer and not yet taken; when reached,
 *                                  reading from peers pauses and local publishes are refused as busy
 * @param security                  TLS and per-peer rate limits
 */
public record RelayConfig(String nodeId, InetSocketAddress listenAddress, List<InetSocketAddress> staticPeers,
                          Set<String> pubsubTopics, ProtocolLimits limits, int maxConnections, Duration handshakeTimeout,
                          Duration idleTimeout, Duration seenTtl, int seenCacheCapacity, int peerQueueMessages,
                          long peerQueueBytes, int maxDropsBeforeDisconnect, int maxInvalidMessagesPerPeer,
                          Duration reconnectMinBackoff, Duration reconnectMaxBackoff, int localQueueMessages,
                          Security security) {

    public static final int DEFAULT_MAX_CONNECTIONS = 50;
    public static final Duration DEFAULT_HANDSHAKE_TIMEOUT = Duration.ofSeconds(5);
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(60);
    public static final Duration DEFAULT_SEEN_TTL = Duration.ofMinutes(2);
    public static final int DEFAULT_SEEN_CACHE_CAPACITY = 100_000;
    public static final int DEFAULT_PEER_QUEUE_MESSAGES = 1024;
    public static final long DEFAULT_PEER_QUEUE_BYTES = 4L << 20;
    public static final int DEFAULT_MAX_DROPS_BEFORE_DISCONNECT = 256;
    public static final int DEFAULT_MAX_INVALID_MESSAGES_PER_PEER = 100;
    public static final Duration DEFAULT_RECONNECT_MIN_BACKOFF = Duration.ofSeconds(1);
    public static final Duration DEFAULT_RECONNECT_MAX_BACKOFF = Duration.ofSeconds(60);
    public static final int DEFAULT_LOCAL_QUEUE_MESSAGES = 256;
    /** No per-address limit: several nodes behind one address (NAT, one host) are common, so it is opt-in. */
    public static final int UNLIMITED_CONNECTIONS_PER_ADDRESS = 0;
    /** Longest node id accepted, ours or a peer's. */
    public static final int MAX_NODE_ID_LENGTH = 128;

    public RelayConfig {
        Objects.requireNonNull(nodeId, "nodeId");
        if (nodeId.isBlank() || nodeId.length() > MAX_NODE_ID_LENGTH) {
            throw new IllegalArgumentException("node id must be 1 to " + MAX_NODE_ID_LENGTH + " characters, was '" + nodeId + "'");
        }
        Objects.requireNonNull(limits, "limits");
        staticPeers = List.copyOf(Objects.requireNonNull(staticPeers, "staticPeers"));
        pubsubTopics = Set.copyOf(Objects.requireNonNull(pubsubTopics, "pubsubTopics"));
        checkTopics(pubsubTopics, limits);
        atLeast("max connections", maxConnections, 1);
        positive("handshake timeout", handshakeTimeout);
        positive("idle timeout", idleTimeout);
        if (idleTimeout.toMillis() < 2) {
            throw new IllegalArgumentException("idle timeout must be at least 2 ms (a Ping goes out at half of it), was " + idleTimeout);
        }
        positive("seen TTL", seenTtl);
        atLeast("seen cache capacity", seenCacheCapacity, 1);
        atLeast("peer queue messages", peerQueueMessages, 1);
        // a peer queue must hold the largest frame, or large messages could never reach any peer
        long largestFrame = limits.maxFrameSize() + 5L;
        if (peerQueueBytes < largestFrame || peerQueueBytes > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("peer queue bytes must be between the largest frame (" + largestFrame
                    + ") and " + Integer.MAX_VALUE + ", was " + peerQueueBytes);
        }
        atLeast("max drops before disconnect", maxDropsBeforeDisconnect, 0);
        atLeast("max invalid messages per peer", maxInvalidMessagesPerPeer, 0);
        positive("reconnect min backoff", reconnectMinBackoff);
        positive("reconnect max backoff", reconnectMaxBackoff);
        if (reconnectMaxBackoff.compareTo(reconnectMinBackoff) < 0) {
            throw new IllegalArgumentException("reconnect max backoff " + reconnectMaxBackoff
                    + " is shorter than the min backoff " + reconnectMinBackoff);
        }
        atLeast("local queue messages", localQueueMessages, 1);
        Objects.requireNonNull(security, "security");
        long publishBytes = security.rateLimits().publishBytesPerSecond();
        if (publishBytes != RateLimits.UNLIMITED && publishBytes < limits.maxMessageSize()) {
            throw new IllegalArgumentException("publish bytes per second must be 0 (unlimited) or at least the max message size ("
                    + limits.maxMessageSize() + "), so that any message gets through within about a second, was " + publishBytes);
        }
    }

    /**
     * Who may connect (ADR 0030), how many connections one address may hold, and how much each may send (ADR 0031).
     *
     * @param tls                  TLS on every peer connection, both directions; null = plaintext
     * @param rateLimits           what one connection may send per second
     * @param maxInboundPerAddress inbound connections one remote IP address may hold at once, handshaking included;
     *                             {@link #UNLIMITED_CONNECTIONS_PER_ADDRESS} = only {@code maxConnections} applies
     */
    public record Security(TlsConfig tls, RateLimits rateLimits, int maxInboundPerAddress) {
        /** Plaintext, {@link RateLimits#DEFAULTS}, no per-address limit. */
        public static final Security DEFAULTS = new Security(null, RateLimits.DEFAULTS, UNLIMITED_CONNECTIONS_PER_ADDRESS);

        public Security {
            Objects.requireNonNull(rateLimits, "rateLimits");
            atLeast("max inbound connections per address", maxInboundPerAddress, 0);
        }
    }

    /** TLS on peer connections, or null for plaintext. */
    public TlsConfig tls() {
        return security.tls();
    }

    public RateLimits rateLimits() {
        return security.rateLimits();
    }

    /** The defaults of every field, subscribed to the default pubsub topic, with no static peers. */
    public static RelayConfig defaults(String nodeId, InetSocketAddress listen) {
        return new RelayConfig(nodeId, listen, List.of(), Set.of(Topics.DEFAULT_PUBSUB_TOPIC), ProtocolLimits.DEFAULTS,
                DEFAULT_MAX_CONNECTIONS, DEFAULT_HANDSHAKE_TIMEOUT, DEFAULT_IDLE_TIMEOUT, DEFAULT_SEEN_TTL,
                DEFAULT_SEEN_CACHE_CAPACITY, DEFAULT_PEER_QUEUE_MESSAGES, DEFAULT_PEER_QUEUE_BYTES,
                DEFAULT_MAX_DROPS_BEFORE_DISCONNECT, DEFAULT_MAX_INVALID_MESSAGES_PER_PEER,
                DEFAULT_RECONNECT_MIN_BACKOFF, DEFAULT_RECONNECT_MAX_BACKOFF, DEFAULT_LOCAL_QUEUE_MESSAGES, Security.DEFAULTS);
    }

    public RelayConfig withListenAddress(InetSocketAddress address) {
        return new RelayConfig(nodeId, address, staticPeers, pubsubTopics, limits, maxConnections, handshakeTimeout,
                idleTimeout, seenTtl, seenCacheCapacity, peerQueueMessages, peerQueueBytes, maxDropsBeforeDisconnect,
                maxInvalidMessagesPerPeer, reconnectMinBackoff, reconnectMaxBackoff, localQueueMessages, security);
    }

    public RelayConfig withStaticPeers(List<InetSocketAddress> peers) {
        return new RelayConfig(nodeId, listenAddress, peers, pubsubTopics, limits, maxConnections, handshakeTimeout,
                idleTimeout, seenTtl, seenCacheCapacity, peerQueueMessages, peerQueueBytes, maxDropsBeforeDisconnect,
                maxInvalidMessagesPerPeer, reconnectMinBackoff, reconnectMaxBackoff, localQueueMessages, security);
    }

    public RelayConfig withPubsubTopics(Set<String> topics) {
        return new RelayConfig(nodeId, listenAddress, staticPeers, topics, limits, maxConnections, handshakeTimeout,
                idleTimeout, seenTtl, seenCacheCapacity, peerQueueMessages, peerQueueBytes, maxDropsBeforeDisconnect,
                maxInvalidMessagesPerPeer, reconnectMinBackoff, reconnectMaxBackoff, localQueueMessages, security);
    }

    public RelayConfig withLimits(ProtocolLimits newLimits) {
        return new RelayConfig(nodeId, listenAddress, staticPeers, pubsubTopics, newLimits, maxConnections,
                handshakeTimeout, idleTimeout, seenTtl, seenCacheCapacity, peerQueueMessages, peerQueueBytes,
                maxDropsBeforeDisconnect, maxInvalidMessagesPerPeer, reconnectMinBackoff, reconnectMaxBackoff,
                localQueueMessages, security);
    }

    public RelayConfig withMaxConnections(int max) {
        return new RelayConfig(nodeId, listenAddress, staticPeers, pubsubTopics, limits, max, handshakeTimeout,
                idleTimeout, seenTtl, seenCacheCapacity, peerQueueMessages, peerQueueBytes, maxDropsBeforeDisconnect,
                maxInvalidMessagesPerPeer, reconnectMinBackoff, reconnectMaxBackoff, localQueueMessages, security);
    }

    public RelayConfig withHandshakeTimeout(Duration timeout) {
        return new RelayConfig(nodeId, listenAddress, staticPeers, pubsubTopics, limits, maxConnections, timeout,
                idleTimeout, seenTtl, seenCacheCapacity, peerQueueMessages, peerQueueBytes, maxDropsBeforeDisconnect,
                maxInvalidMessagesPerPeer, reconnectMinBackoff, reconnectMaxBackoff, localQueueMessages, security);
    }

    public RelayConfig withIdleTimeout(Duration timeout) {
        return new RelayConfig(nodeId, listenAddress, staticPeers, pubsubTopics, limits, maxConnections,
                handshakeTimeout, timeout, seenTtl, seenCacheCapacity, peerQueueMessages, peerQueueBytes,
                maxDropsBeforeDisconnect, maxInvalidMessagesPerPeer, reconnectMinBackoff, reconnectMaxBackoff,
                localQueueMessages, security);
    }

    public RelayConfig withSeenCache(Duration ttl, int capacity) {
        return new RelayConfig(nodeId, listenAddress, staticPeers, pubsubTopics, limits, maxConnections,
                handshakeTimeout, idleTimeout, ttl, capacity, peerQueueMessages, peerQueueBytes,
                maxDropsBeforeDisconnect, maxInvalidMessagesPerPeer, reconnectMinBackoff, reconnectMaxBackoff,
                localQueueMessages, security);
    }

    public RelayConfig withPeerQueue(int messages, long bytes) {
        return new RelayConfig(nodeId, listenAddress, staticPeers, pubsubTopics, limits, maxConnections,
                handshakeTimeout, idleTimeout, seenTtl, seenCacheCapacity, messages, bytes, maxDropsBeforeDisconnect,
                maxInvalidMessagesPerPeer, reconnectMinBackoff, reconnectMaxBackoff, localQueueMessages, security);
    }

    public RelayConfig withMaxDropsBeforeDisconnect(int drops) {
        return new RelayConfig(nodeId, listenAddress, staticPeers, pubsubTopics, limits, maxConnections,
                handshakeTimeout, idleTimeout, seenTtl, seenCacheCapacity, peerQueueMessages, peerQueueBytes, drops,
                maxInvalidMessagesPerPeer, reconnectMinBackoff, reconnectMaxBackoff, localQueueMessages, security);
    }

    public RelayConfig withMaxInvalidMessagesPerPeer(int invalid) {
        return new RelayConfig(nodeId, listenAddress, staticPeers, pubsubTopics, limits, maxConnections,
                handshakeTimeout, idleTimeout, seenTtl, seenCacheCapacity, peerQueueMessages, peerQueueBytes,
                maxDropsBeforeDisconnect, invalid, reconnectMinBackoff, reconnectMaxBackoff, localQueueMessages, security);
    }

    public RelayConfig withReconnectBackoff(Duration min, Duration max) {
        return new RelayConfig(nodeId, listenAddress, staticPeers, pubsubTopics, limits, maxConnections,
                handshakeTimeout, idleTimeout, seenTtl, seenCacheCapacity, peerQueueMessages, peerQueueBytes,
                maxDropsBeforeDisconnect, maxInvalidMessagesPerPeer, min, max, localQueueMessages, security);
    }

    public RelayConfig withLocalQueueMessages(int messages) {
        return new RelayConfig(nodeId, listenAddress, staticPeers, pubsubTopics, limits, maxConnections,
                handshakeTimeout, idleTimeout, seenTtl, seenCacheCapacity, peerQueueMessages, peerQueueBytes,
                maxDropsBeforeDisconnect, maxInvalidMessagesPerPeer, reconnectMinBackoff, reconnectMaxBackoff, messages, security);
    }

    /** TLS on peer connections (null: plaintext). */
    public RelayConfig withTls(TlsConfig tls) {
        return withSecurity(new Security(tls, security.rateLimits(), security.maxInboundPerAddress()));
    }

    public RelayConfig withRateLimits(RateLimits rateLimits) {
        return withSecurity(new Security(security.tls(), rateLimits, security.maxInboundPerAddress()));
    }

    /** At most {@code max} inbound connections from one IP address ({@link #UNLIMITED_CONNECTIONS_PER_ADDRESS}: no limit). */
    public RelayConfig withMaxInboundPerAddress(int max) {
        return withSecurity(new Security(security.tls(), security.rateLimits(), max));
    }

    public RelayConfig withSecurity(Security newSecurity) {
        return new RelayConfig(nodeId, listenAddress, staticPeers, pubsubTopics, limits, maxConnections,
                handshakeTimeout, idleTimeout, seenTtl, seenCacheCapacity, peerQueueMessages, peerQueueBytes,
                maxDropsBeforeDisconnect, maxInvalidMessagesPerPeer, reconnectMinBackoff, reconnectMaxBackoff,
                localQueueMessages, newSecurity);
    }

    /** Throws IllegalArgumentException naming the first topic that is not a valid pubsub topic. */
    static void checkTopics(Collection<String> topics, ProtocolLimits limits) {
        for (String topic : topics) {
            Objects.requireNonNull(topic, "pubsub topic");
            try {
                Topics.checkPubsubTopic(topic, limits.maxTopicBytes());
            } catch (ProtocolViolation e) {
                throw new IllegalArgumentException(e.getMessage(), e);
            }
        }
    }

    private static void atLeast(String what, long value, long min) {
        if (value < min) {
            throw new IllegalArgumentException(what + " must be at least " + min + ", was " + value);
        }
    }

    private static void positive(String what, Duration value) {
        Objects.requireNonNull(value, what);
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(what + " must be positive, was " + value);
        }
    }
}
