package io.wakurelay.p2p.multiaddr;

/** Text or bytes that are not a multiaddr we can read: unknown protocol, malformed value, truncated bytes. */
public final class MultiaddrFormatException extends RuntimeException {

    public MultiaddrFormatException(String message) {
        super(message);
    }

    public MultiaddrFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
