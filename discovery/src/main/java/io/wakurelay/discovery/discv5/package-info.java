/**
 * Node Discovery v5 (devp2p discv5 wire protocol v5.1) over UDP:
 * <ul>
 *   <li>{@link io.wakurelay.discovery.discv5.Packet}, {@link io.wakurelay.discovery.discv5.HandshakeAuthdata},
 *       {@link io.wakurelay.discovery.discv5.Message}: the packet codec (masked header, the three flags) and the
 *       messages;</li>
 *   <li>{@link io.wakurelay.discovery.discv5.Discv5Crypto}: masking, AES-GCM, ECDH, HKDF session keys, id-nonce
 *       signatures; {@link io.wakurelay.discovery.discv5.NodeIds}: node ids and the XOR metric.</li>
 * </ul>
 */
package io.wakurelay.discovery.discv5;
