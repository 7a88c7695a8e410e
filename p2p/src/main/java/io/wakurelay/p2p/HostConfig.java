package io.wakurelay.p2p;

import io.soabase.recordbuilder.core.RecordBuilder;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.p2p.mux.MplexSession;
import io.wakurelay.p2p.mux.MuxerLimits;
import io.wakurelay.p2p.mux.YamuxSession;
import io.wakurelay.p2p.noise.AeadSelection;
import io.wakurelay.p2p.ws.WebSocketConfig;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * How a {@link Host} listens, dials and limits its peers. Validated when built; {@link #DEFAULTS} is the one source
 * of every default (flags, docs and tests read it).
 *
 * @param listenAddress         TCP address to accept connections on; null: this host only dials
 * @param announceAddresses     addresses identify announces for this host (nwaku's {@code --ext-multiaddr}); when
 *                              empty, the bound address unless it is a wildcard
 * @param externalAddressesOnly identify announces {@code announceAddresses} and nothing else: no bound address, no
 *                              {@code dns4DomainName} address (nwaku's {@code --ext-multiaddr-only}, for a node behind
 *                              a NAT or proxy whose operator writes every address peers may dial)
 * @param agentVersion          identify's agent version, e.g. {@code wakurelay/0.1.0}
 * @param muxers                muxer protocol ids in order of preference, from {@link #SUPPORTED_MUXERS}
 * @param maxConnections        connections in and out together, handshaking ones included
 * @param reservedOutboundSlots of {@code maxConnections}, the slots inbound connections may not take (at least the
 *                              number of static peers is kept), so that an inbound flood cannot stop this host from
 *                              dialling its own peers
 * @param ipColocationLimit inbound connections from one IP address, handshaking ones included (0: no
 *                              limit); nwaku's {@code --ip-colocation-limit}, also 5 by default
 * @param subnetColocationLimit inbound connections from one /24 of IPv4 or one /64 of IPv6, handshaking ones
 *                              included (0: no limit); loopback is exempt, as in go-libp2p's resource manager
 * @param gracePeriod           an inbound connection still unidentified, or that neither names nor used a protocol this
 *                              host serves (beyond identify and ping), this long after its upgrade is closed; until
 *                              then a newcomer evicts it only when its identify failed (go-libp2p's connection
 *                              manager's grace period; ADR 0086)
 * @param idleTimeout           an inbound connection that had no stream open (beyond identify and ping) for this long
 *                              is closed
 * @param handshakeTimeout      time a new connection has for TCP, security and muxer negotiation together
 * @param firstBytesTimeout     time an inbound socket has to send its first bytes (an honest dialer sends its
 *                              multistream-select header at once); a silent socket is closed at this deadline
 * @param pingInterval          how often each connection is pinged ({@code /ipfs/ping/1.0.0})
 * @param pingTimeout           a ping not answered in this time closes the connection
 * @param redialMinBackoff      first wait before a static peer is dialled again
 * @param redialMaxBackoff      longest wait between dials of a static peer (the wait doubles, with jitter)
 * @param duplicateWindow       two connections to one peer completed within this time are a simultaneous open, which
 *                              both sides settle the same way; later, the live connection is kept and the newcomer closed
 * @param writeBufferHighWater  bytes queued on a connection's socket before it turns unwritable (low mark: half)
 * @param writeStallTimeout     a connection whose socket has taken none of the bytes waiting for it in this time is
 *                              closed ({@code write_stalled}): its peer stopped reading (go-yamux's
 *                              ConnectionWriteTimeout, also 10 s)
 * @param muxerLimits           what each connection's streams may hold
 * @param staticPeers           peers dialled at start and kept connected; each must name its {@code /p2p} peer id
 * @param aead                  the ChaCha20-Poly1305 of the Noise sessions: the JDK's, Conscrypt's, or Conscrypt's
 *                              where it loads and the JDK's elsewhere ({@link AeadSelection})
 * @param webSocket             the WebSocket transport: whether and where it listens, with or without TLS
 * @param dns4DomainName        a DNS name of this host's public IPv4 address (nwaku's {@code --dns4-domain-name}):
 *                              identify then announces {@code /dns4/<name>/tcp/<port>} and, with WebSocket,
 *                              {@code /dns4/<name>/tcp/<port>/ws} or {@code /wss} (a browser needs a name for wss);
 *                              null: none
 * @param threadNamePrefix      what the host's event loop threads are called, before {@code -epoll-N}: hosts in one
 *                              process with different prefixes can be told apart in a thread dump and in Linux's
 *                              per-thread CPU counts, which show a thread's first 15 characters
 */
@RecordBuilder
public record HostConfig(InetSocketAddress listenAddress, List<Multiaddr> announceAddresses,
                         boolean externalAddressesOnly, String agentVersion,
                         List<String> muxers, int maxConnections, int reservedOutboundSlots,
                         int ipColocationLimit, int subnetColocationLimit, Duration gracePeriod,
                         Duration idleTimeout, Duration handshakeTimeout, Duration firstBytesTimeout,
                         Duration pingInterval, Duration pingTimeout, Duration redialMinBackoff,
                         Duration redialMaxBackoff, Duration duplicateWindow, int writeBufferHighWater,
                         Duration writeStallTimeout, MuxerLimits muxerLimits, List<Multiaddr> staticPeers,
                         AeadSelection.Choice aead, WebSocketConfig webSocket,
                         String dns4DomainName, String threadNamePrefix) {
    public static final List<String> SUPPORTED_MUXERS = List.of(YamuxSession.PROTOCOL_ID, MplexSession.PROTOCOL_ID);
    public static final String IDENTIFY_PROTOCOL_VERSION = "ipfs/0.1.0";
    private static final Pattern THREAD_NAME_PREFIX = Pattern.compile("[A-Za-z0-9-]{1,32}");
    private static final Pattern DNS_NAME = Pattern.compile(
            "(?i)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*");

    public static final HostConfig DEFAULTS = new HostConfig(new InetSocketAddress("0.0.0.0", 60000), List.of(), false,
            "wakurelay", SUPPORTED_MUXERS, 50, 10, 5, 10, Duration.ofSeconds(30), Duration.ofMinutes(5),
            Duration.ofSeconds(10), Duration.ofSeconds(3),
            Duration.ofSeconds(15), Duration.ofSeconds(10), Duration.ofSeconds(1), Duration.ofSeconds(30),
            Duration.ofSeconds(2), 4 * 1024 * 1024, Duration.ofSeconds(10), MuxerLimits.DEFAULTS, List.of(),
            AeadSelection.Choice.AUTO, WebSocketConfig.DEFAULTS, null, "wakurelay-p2p");

    public HostConfig {
        announceAddresses = List.copyOf(announceAddresses);
        muxers = List.copyOf(muxers);
        staticPeers = List.copyOf(staticPeers);
        Objects.requireNonNull(agentVersion, "agentVersion");
        Objects.requireNonNull(muxerLimits, "muxerLimits");
        Objects.requireNonNull(aead, "aead");
        Objects.requireNonNull(webSocket, "webSocket");
        if (threadNamePrefix == null || !THREAD_NAME_PREFIX.matcher(threadNamePrefix).matches()) {
            throw new IllegalArgumentException("threadNamePrefix must be 1 to 32 letters, digits or '-', was '"
                    + threadNamePrefix + "'");
        }
        if (dns4DomainName != null && !DNS_NAME.matcher(dns4DomainName).matches()) {
            throw new IllegalArgumentException("dns4DomainName must be a DNS name such as node.example.com, was '"
                    + dns4DomainName + "'");
        }
        if (externalAddressesOnly && announceAddresses.isEmpty()) {
            throw new IllegalArgumentException("announcing external addresses only needs at least one external address "
                    + "(--ext-multiaddr-only without --ext-multiaddr would announce none)");
        }
        if (webSocket.listen() && listenAddress == null) {
            throw new IllegalArgumentException(
                    "a WebSocket listener needs a listen address (its IP is the WebSocket's)");
        }
        if (muxers.isEmpty() || !SUPPORTED_MUXERS.containsAll(muxers)) {
            throw new IllegalArgumentException("muxers must be some of " + SUPPORTED_MUXERS + ", were " + muxers);
        }
        if (maxConnections < 1) {
            throw new IllegalArgumentException("maxConnections must be positive, was " + maxConnections);
        }
        if (reservedOutboundSlots < 0 || reservedOutboundSlots >= maxConnections) {
            throw new IllegalArgumentException("reservedOutboundSlots must be in 0.." + (maxConnections - 1) + ", was "
                    + reservedOutboundSlots);
        }
        if (ipColocationLimit < 0) {
            throw new IllegalArgumentException("ipColocationLimit must not be negative, was " + ipColocationLimit);
        }
        if (subnetColocationLimit < 0) {
            throw new IllegalArgumentException("subnetColocationLimit must not be negative, was "
                    + subnetColocationLimit);
        }
        positive("gracePeriod", gracePeriod);
        positive("idleTimeout", idleTimeout);
        positive("handshakeTimeout", handshakeTimeout);
        positive("firstBytesTimeout", firstBytesTimeout);
        positive("pingInterval", pingInterval);
        positive("pingTimeout", pingTimeout);
        positive("redialMinBackoff", redialMinBackoff);
        positive("duplicateWindow", duplicateWindow);
        positive("writeStallTimeout", writeStallTimeout);
        if (redialMaxBackoff.compareTo(redialMinBackoff) < 0) {
            throw new IllegalArgumentException("redialMaxBackoff (" + redialMaxBackoff + ") is below redialMinBackoff ("
                    + redialMinBackoff + ")");
        }
        if (writeBufferHighWater < 64 * 1024) {
            throw new IllegalArgumentException("writeBufferHighWater must be at least 64 KiB, was " + writeBufferHighWater);
        }
        for (Multiaddr peer : staticPeers) {
            if (peer.peerId().isEmpty() || !(peer.isTcp() || peer.isWebSocket())) {
                throw new IllegalArgumentException("a static peer needs a TCP or WebSocket address ending in "
                        + "/p2p/<peer id>, got " + peer);
            }
        }
    }

    private static void positive(String name, Duration d) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, was " + d);
        }
    }

    /** Inbound connections may take at most this many slots. */
    public int maxInbound() {
        return maxConnections - Math.max(reservedOutboundSlots, Math.min(staticPeers.size(), maxConnections - 1));
    }

    public HostConfigBuilder toBuilder() {
        return HostConfigBuilder.builder(this);
    }

    public static HostConfigBuilder builder() {
        return HostConfigBuilder.builder(DEFAULTS);
    }
}
