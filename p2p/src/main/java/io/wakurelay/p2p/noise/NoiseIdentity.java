package io.wakurelay.p2p.noise;

import io.wakurelay.p2p.crypto.PrivateKey;

import java.util.List;

/**
 * A host's side of every Noise handshake: one static X25519 key for the host's lifetime and the identity payload that
 * signs it, made once (the signature does not depend on the peer, so it is not recomputed per connection), and the
 * implementation of ChaCha20-Poly1305 its sessions use ({@link AeadSelection}).
 */
public final class NoiseIdentity {
    private final X25519.KeyPair staticKey;
    private final byte[] payload;
    private final AeadSelection aead;

    private NoiseIdentity(X25519.KeyPair staticKey, byte[] payload, AeadSelection aead) {
        this.staticKey = staticKey;
        this.payload = payload;
        this.aead = aead;
    }

    public static NoiseIdentity create(PrivateKey identity, AeadSelection aead) {
        X25519.KeyPair staticKey = X25519.generate();
        return new NoiseIdentity(staticKey, NoisePayload.create(identity, staticKey.publicKey(), List.of()), aead);
    }

    NoiseHandshake newHandshake(boolean initiator) {
        ChaChaPoly cipher = aead.current();
        return initiator ? NoiseHandshake.initiator(staticKey, cipher) : NoiseHandshake.responder(staticKey, cipher);
    }

    byte[] payload() {
        return payload;
    }
}
