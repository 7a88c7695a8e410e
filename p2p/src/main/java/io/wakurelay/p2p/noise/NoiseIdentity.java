package io.wakurelay.p2p.noise;

import io.wakurelay.p2p.crypto.PrivateKey;

import java.util.List;

/**
 * A host's side of every Noise handshake: one static X25519 key for the host's lifetime and the identity payload that
 * signs it, made once (the signature does not depend on the peer, so it is not recomputed per connection).
 */
public final class NoiseIdentity {
    private final X25519.KeyPair staticKey;
    private final byte[] payload;

    private NoiseIdentity(X25519.KeyPair staticKey, byte[] payload) {
        this.staticKey = staticKey;
        this.payload = payload;
    }

    public static NoiseIdentity create(PrivateKey identity) {
        X25519.KeyPair staticKey = X25519.generate();
        return new NoiseIdentity(staticKey, NoisePayload.create(identity, staticKey.publicKey(), List.of()));
    }

    NoiseHandshake newHandshake(boolean initiator) {
        return initiator ? NoiseHandshake.initiator(staticKey) : NoiseHandshake.responder(staticKey);
    }

    byte[] payload() {
        return payload;
    }
}
