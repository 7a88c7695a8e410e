package io.wakurelay.p2p.crypto;

/**
 * A well-formed key this host refuses: too weak, or costlier to verify than an event loop can afford (an RSA key
 * past {@code RsaPublicKey}'s bounds). A {@link KeyFormatException}, so that whoever refuses malformed keys refuses
 * these too; the host counts it apart ({@code libp2p_handshakes_total{outcome="key_refused"}}).
 */
public final class KeyRefusedException extends KeyFormatException {

    public KeyRefusedException(String message) {
        super(message);
    }
}
