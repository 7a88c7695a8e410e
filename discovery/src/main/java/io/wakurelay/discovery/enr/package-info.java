/**
 * Ethereum Node Records (EIP-778) with Waku's fields, in the order a record is made and read:
 * <ul>
 *   <li>{@link io.wakurelay.discovery.enr.EnrBuilder}: the node's content from its announced addresses,
 *       capabilities and shards;</li>
 *   <li>{@link io.wakurelay.discovery.enr.LocalEnr}: the node's own record, its sequence number kept in the data
 *       directory;</li>
 *   <li>{@code Rlp} and {@code RlpReader}: the encoding, and its strict bounded reader;</li>
 *   <li>{@code V4Identity}: the "v4" scheme: Keccak-256, secp256k1 signatures of 64 bytes, node ids;</li>
 *   <li>{@link io.wakurelay.discovery.enr.Secp256k1Signatures}: the same signatures and Keccak-256 for the other
 *       signed formats (EIP-1459's tree root);</li>
 *   <li>{@link io.wakurelay.discovery.enr.Enr}: a verified record and its typed fields;</li>
 *   <li>{@code WakuEnrFields}, {@link io.wakurelay.discovery.enr.WakuCapabilities},
 *       {@link io.wakurelay.discovery.enr.RelayShards}: Waku's {@code multiaddrs}, {@code waku2}, {@code rs} and
 *       {@code rsv};</li>
 *   <li>{@link io.wakurelay.discovery.enr.EnrFormatException}: whatever does not decode.</li>
 * </ul>
 */
package io.wakurelay.discovery.enr;
