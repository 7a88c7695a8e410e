/**
 * Peer identity (libp2p/specs peer-ids/peer-ids.md): keys, their protobufs, signatures and peer ids. Pure Java and
 * BouncyCastle's lightweight API; no Netty. In flow order:
 * <ul>
 * <li>{@link io.wakurelay.p2p.crypto.NodeKey}: loads the node's key from {@code <dataDir>/nodekey}, or creates one.</li>
 * <li>{@link io.wakurelay.p2p.crypto.PrivateKey}: an Ed25519 or secp256k1 identity key; signs, marshals.</li>
 * <li>{@code Ed25519PrivateKey}, {@code Secp256k1PrivateKey}: the two signing schemes (RFC 8032; RFC 6979 low-S
 * ECDSA).</li>
 * <li>{@link io.wakurelay.p2p.crypto.PublicKey}: any libp2p public key; verifies, marshals, unmarshals.</li>
 * <li>{@code Ed25519PublicKey}, {@code Secp256k1PublicKey}, {@code RsaPublicKey}, {@code EcdsaPublicKey}: the four
 * key types' encodings and verification (RSA within bounds on its size and exponent, for what verifying costs).</li>
 * <li>{@code Secp256k1}: the curve, SEC1 points and strict DER signatures.</li>
 * <li>{@code KeyEnvelope}: the deterministic {@code PublicKey}/{@code PrivateKey} protobufs.</li>
 * <li>{@link io.wakurelay.p2p.crypto.KeyType}: the four key types and their protobuf codes.</li>
 * <li>{@link io.wakurelay.p2p.crypto.PeerId}: the identity or sha2-256 multihash of a public key, in base58btc or as
 * a CID.</li>
 * <li>{@link io.wakurelay.p2p.crypto.Base58}, {@link io.wakurelay.p2p.crypto.Multibase}, {@code RadixCodec}: the
 * text encodings of peer ids and certificate hashes.</li>
 * <li>{@link io.wakurelay.p2p.crypto.KeyFormatException}: every malformed key, signature container, peer id or key
 * file.</li>
 * <li>{@link io.wakurelay.p2p.crypto.KeyRefusedException}: a well-formed key refused (too weak, or too costly to
 * verify).</li>
 * </ul>
 */
package io.wakurelay.p2p.crypto;
