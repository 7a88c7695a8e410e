/**
 * A libp2p host on Reactor Netty; knows nothing of Waku (docs/p2p.md). In flow order:
 * <ul>
 * <li>{@link io.wakurelay.p2p.HostConfig}: listen and announce addresses, limits, static peers; {@code DEFAULTS}.</li>
 * <li>{@link io.wakurelay.p2p.Host}: start, accept and dial (TCP and WebSocket), protocols, peers, shutdown;
 *     {@link io.wakurelay.p2p.ListenFailedException}: an address it could not listen on.</li>
 * <li>{@code AnnouncedAddresses}: what identify announces (bound addresses, a DNS name, --ext-multiaddr).</li>
 * <li>{@code ServerSockets}: the server channels it listens on, and every connection's write bounds.</li>
 * <li>{@code Dialer}: the host's dials, one attempt per peer at a time.</li>
 * <li>{@code ConnectionManager}: connection slots, the per-address and per-subnet limits, eviction of the longest
 *     handshake or of the connection the trimmer names, one connection per peer id.</li>
 * <li>{@code ConnectionTrimmer}, {@code ConnectionUse}: which inbound connections are not worth their slot (pruned
 *     after a grace period or an idle timeout, or given up for a newcomer); {@link io.wakurelay.p2p.PeerValues}: what
 *     the layers above say to keep (ADR 0086).</li>
 * <li>{@code ConnectionUpgrader}: a socket's pipeline, from the transport's prelude (WebSocket) and
 *     multistream-select through Noise to the muxer.</li>
 * <li>{@code FirstBytesDeadline}: an inbound socket that sends nothing is cut off within seconds.</li>
 * <li>{@code ByteCounter}: the socket's bytes, counted.</li>
 * <li>{@code UpgradeLifecycle}: the handshake deadline, eviction, and each failure's counted outcome.</li>
 * <li>{@code WriteStallGuard}: a connection whose socket takes nothing for a while is closed (from its first byte).</li>
 * <li>{@link io.wakurelay.p2p.HandshakeException}: an upgrade that failed, with its outcome.</li>
 * <li>{@code HostConnection}: an upgraded connection to a proven peer (a {@code connection.Connection}).</li>
 * <li>{@link io.wakurelay.p2p.LengthPrefixedHandler}: a stream read as length-prefixed messages.</li>
 * <li>{@code IdentifyService}, {@code PingService}: identify and ping, served and asked.</li>
 * <li>{@code StaticPeers}: peers kept connected, redialled with backoff and jitter.</li>
 * <li>{@link io.wakurelay.p2p.ConnectionListener}, {@link io.wakurelay.p2p.PeerRecord}: what upper layers hear.</li>
 * <li>{@code HostMetrics}: the {@code libp2p_*} meters.</li>
 * </ul>
 * Subpackages: {@code connection} (what upper layers use: a connection, its streams, what serves a protocol, the
 * transport, the exception), {@code crypto} (keys, peer ids), {@code multiaddr}, {@code mss} (multistream-select), {@code noise},
 * {@code mux} (yamux, mplex), {@code wire} (varints, length-prefixed messages), {@code echo} (a diagnostic protocol),
 * {@code ws} (libp2p over WebSocket), {@code nat} (the ports mapped at the gateway: UPnP, NAT-PMP), {@code limits} (the
 * project's one token bucket: a rate per key, for whatever a remote party may make this node do).
 */
package io.wakurelay.p2p;
