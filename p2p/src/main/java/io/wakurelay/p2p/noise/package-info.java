/**
 * libp2p's Noise (libp2p/specs noise/README.md): {@code Noise_XX_25519_ChaChaPoly_SHA256} on byte arrays and
 * {@link java.nio.ByteBuffer}s, and the channel handlers that frame its messages (2-byte length prefix) and drive it.
 * In flow order:
 * <ul>
 * <li>{@link io.wakurelay.p2p.noise.NoiseIdentity}: the host's static key and signed payload, made once.</li>
 * <li>{@link io.wakurelay.p2p.noise.NoiseHandshakeHandler}: the handshake on a connection; proves the peer id
 *     ({@link io.wakurelay.p2p.noise.SecureSession}, {@link io.wakurelay.p2p.noise.PeerIdMismatchException}).</li>
 * <li>{@code NoiseFrameEncoder}, {@code NoiseFrameDecoder}: transport messages after the handshake.</li>
 * <li>{@link io.wakurelay.p2p.noise.NoiseCounters}: bytes through the ciphers, for the metrics.</li>
 * <li>{@link io.wakurelay.p2p.noise.X25519}: static and ephemeral key pairs and DH on the JDK's XDH.</li>
 * <li>{@link io.wakurelay.p2p.noise.NoiseHandshake}: the three XX messages of one side, then the split.</li>
 * <li>{@link io.wakurelay.p2p.noise.NoisePayload}: the identity key, its signature of the static key and the
 * stream muxers inside messages 1 and 2.</li>
 * <li>{@code SymmetricState}: ck, h, MixKey, MixHash, EncryptAndHash, HKDF, Split.</li>
 * <li>{@link io.wakurelay.p2p.noise.CipherPair}: the sending and receiving cipher states after the handshake.</li>
 * <li>{@link io.wakurelay.p2p.noise.CipherState}: ChaCha20-Poly1305 per transport message, nonce counting and
 * its limit, on the {@link io.wakurelay.p2p.noise.ChaChaPoly} (the JDK's or Conscrypt's) that
 * {@link io.wakurelay.p2p.noise.AeadSelection} chose (ADR 0070).</li>
 * <li>{@link io.wakurelay.p2p.noise.NoiseException}: any failure that must close the connection.</li>
 * </ul>
 */
package io.wakurelay.p2p.noise;
