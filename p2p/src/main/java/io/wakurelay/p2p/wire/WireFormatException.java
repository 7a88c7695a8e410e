package io.wakurelay.p2p.wire;

/** Bytes from a peer that break a protocol's framing: the stream or connection can no longer be trusted. */
public class WireFormatException extends RuntimeException {
    public WireFormatException(String message) {
        super(message);
    }
}
