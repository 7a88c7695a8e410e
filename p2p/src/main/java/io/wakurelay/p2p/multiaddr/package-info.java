/**
 * Multiaddrs (multiformats/multiaddr), text and binary, their varints read and written by
 * {@link io.wakurelay.p2p.wire.Uvarint} on byte arrays. No Netty in the API. In flow order:
 * <ul>
 * <li>{@link io.wakurelay.p2p.multiaddr.Multiaddr}: parses, prints, compares; the TCP socket address and the peer
 * id in an address.</li>
 * <li>{@link io.wakurelay.p2p.multiaddr.Component}: one protocol and its value in canonical text.</li>
 * <li>{@link io.wakurelay.p2p.multiaddr.Protocol}: the protocols of protocols.csv we read, with code, name and value
 * size.</li>
 * <li>{@code ValueCodec}: each protocol's value between text and bytes.</li>
 * <li>{@code IpText}: IPv4 and IPv6 literals without DNS lookups; RFC 5952 output.</li>
 * <li>{@code HttpPathText}: the percent-encoded text of {@code /http-path}.</li>
 * <li>{@link io.wakurelay.p2p.multiaddr.MultiaddrFormatException}: text or bytes that are not a multiaddr we can
 * read.</li>
 * </ul>
 */
package io.wakurelay.p2p.multiaddr;
