package io.wakurelay.p2p.noise;

import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.crypto.PublicKey;

/** The peer a finished Noise handshake proved: its identity key signed the static key it used. */
public record SecureSession(PeerId remotePeer, PublicKey remoteKey) {
}
