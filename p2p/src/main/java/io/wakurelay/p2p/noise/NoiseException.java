package io.wakurelay.p2p.noise;

/**
 * The Noise session cannot go on: a handshake message that does not decrypt or has the wrong length, a call out
 * of turn, a payload whose identity signature does not verify, a transport message that fails authentication, or
 * an exhausted nonce. The connection must be closed.
 */
public class NoiseException extends RuntimeException {

    public NoiseException(String message) {
        super(message);
    }

    public NoiseException(String message, Throwable cause) {
        super(message, cause);
    }
}
