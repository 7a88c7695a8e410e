/**
 * Node Discovery v5 (devp2p discv5 wire protocol v5.1) over UDP:
 * <ul>
 *   <li>{@link io.wakurelay.discovery.discv5.Packet}, {@link io.wakurelay.discovery.discv5.HandshakeAuthdata},
 *       {@link io.wakurelay.discovery.discv5.Message}: the packet codec (masked header, the three flags) and the
 *       messages;</li>
 *   <li>{@link io.wakurelay.discovery.discv5.Discv5Crypto}: masking, AES-GCM, ECDH, HKDF session keys, id-nonce
 *       signatures; {@link io.wakurelay.discovery.discv5.NodeIds}: node ids and the XOR metric;</li>
 *   <li>{@link io.wakurelay.discovery.discv5.Discv5Service}: the UDP node (handshakes, PING/PONG, FINDNODE/NODES,
 *       TALKREQ answered empty, liveness checks) on one event loop, with its bounded parts: the project's
 *       {@link io.wakurelay.p2p.limits.TokenBuckets} keyed by {@code SourcePrefix} (each source's packet budget),
 *       {@code Sessions},
 *       {@code RecipientHandshakes} (WHOAREYOUs at a rate of all sources, into {@code Challenges}),
 *       {@code PendingRequests}, {@link io.wakurelay.discovery.discv5.RoutingTable}; {@code Lookup}: the iterative
 *       lookup;
 *       {@link io.wakurelay.discovery.discv5.Discv5Metrics}: its meters.</li>
 * </ul>
 */
package io.wakurelay.discovery.discv5;
