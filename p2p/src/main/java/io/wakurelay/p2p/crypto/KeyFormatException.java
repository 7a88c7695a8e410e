package io.wakurelay.p2p.crypto;

/**
 * A malformed key, signature container, peer id or key file: the bytes or text cannot be what they claim to be.
 * A signature that is well formed but does not verify is not an exception; {@link PublicKey#verify} answers false.
 * A well-formed key this host will not take is a {@link KeyRefusedException}.
 */
public sealed class KeyFormatException extends RuntimeException permits KeyRefusedException {

    public KeyFormatException(String message) {
        super(message);
    }

    public KeyFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
