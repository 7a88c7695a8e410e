/**
 * libp2p over WebSocket (docs/p2p.md, "WebSocket"; ADR 0055): what goes on a socket before libp2p's own upgrade. In
 * flow order:
 * <ul>
 * <li>{@link io.wakurelay.p2p.ws.WebSocketConfig}: listen or not, the port, TLS files, the frame bound, trusted
 *     certificates for dialling; {@code DEFAULTS}.</li>
 * <li>{@link io.wakurelay.p2p.ws.PemFiles}: the certificate chain and private key of {@code /wss}, read and
 *     checked.</li>
 * <li>{@link io.wakurelay.p2p.ws.WebSocketTransport}: puts TLS, the HTTP codec and one of the two handshakes in front
 *     of the libp2p upgrade.</li>
 * <li>{@code TlsRenegotiationGuard}: a {@code /wss} client's TLS renegotiation ends its connection.</li>
 * <li>{@code WebSocketAcceptor}: the listening side: one HTTP request, upgraded or answered with a 4xx.</li>
 * <li>{@code WebSocketDialHandshake}: the dialling side: the upgrade request and the 101 checked.</li>
 * <li>{@code WebSocketFrames}: binary frames to bytes and back; pings (one pong pending at most), close, text frames
 *     and violations.</li>
 * <li>{@link io.wakurelay.p2p.ws.WebSocketException}, {@link io.wakurelay.p2p.ws.WebSocketEvents}: what the host
 *     counts.</li>
 * </ul>
 * Knows nothing of the host: {@code io.wakurelay.p2p} uses it, never the other way.
 */
package io.wakurelay.p2p.ws;
