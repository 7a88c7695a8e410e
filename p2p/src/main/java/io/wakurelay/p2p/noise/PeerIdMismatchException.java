package io.wakurelay.p2p.noise;

import io.wakurelay.p2p.crypto.PeerId;

/** The dialled peer proved an identity other than the one its address named. */
public final class PeerIdMismatchException extends NoiseException {
    public PeerIdMismatchException(PeerId expected, PeerId actual) {
        super("dialled " + expected + " but the peer is " + actual);
    }
}
