package io.wakurelay.discovery.discv5;

/** A datagram that is not a discv5 packet we can read (too short or long, another protocol, a bad header). */
public final class Discv5PacketException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public Discv5PacketException(String message) {
        super(message);
    }

    public Discv5PacketException(String message, Throwable cause) {
        super(message, cause);
    }
}
