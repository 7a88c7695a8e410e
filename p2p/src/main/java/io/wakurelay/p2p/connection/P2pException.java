package io.wakurelay.p2p.connection;

/** A connection or stream ended, or could not be made; the message says why. */
public class P2pException extends RuntimeException {
    public P2pException(String message) {
        super(message);
    }

    public P2pException(String message, Throwable cause) {
        super(message, cause);
    }

    /** The stream was reset, by the peer or locally, or ended with its connection. */
    public static final class StreamReset extends P2pException {
        public StreamReset(String message) {
            super(message);
        }
    }

    /** The connection is closed. */
    public static final class ConnectionClosed extends P2pException {
        public ConnectionClosed(String message) {
            super(message);
        }

        public ConnectionClosed(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
