package io.wakurelay.p2p.mux;

import io.wakurelay.p2p.wire.WireFormatException;

/** The peer broke the muxer's protocol: the connection ends. {@link #reason()} is the metric label. */
public final class MuxerException extends WireFormatException {
    private final String reason;

    public MuxerException(String reason, String message) {
        super(message);
        this.reason = reason;
    }

    public String reason() {
        return reason;
    }
}
