package io.wakurelay.p2p.crypto;

/**
 * A malformed key, signature container, peer id or key file: the bytes or text cannot be what they claim to be.
 * A signature that is well formed but does not verify is not an exception; {@link PublicKey#verify} answers false.
 */
public final class KeyFormatException extends RuntimeException {

    public KeyFormatException(String message) {
        super(message);
    }

    public KeyFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
