package io.wakurelay.p2p.ws;

import java.io.IOException;

/**
 * A WebSocket connection broke the transport's rules (a text frame, a frame over the bound, an upgrade refused);
 * {@link #reason()} is the metric label the host counts it under (a handshake outcome before the libp2p upgrade is
 * done, a disconnect reason after).
 */
public final class WebSocketException extends IOException {
    /** A text frame: libp2p over WebSocket carries binary frames only. */
    public static final String TEXT_FRAME = "websocket_text_frame";
    /** A frame larger than {@link WebSocketConfig#maxFrameBytes()}. */
    public static final String FRAME_TOO_LARGE = "websocket_frame_too_large";
    /** Any other broken framing (an unmasked client frame, a bad opcode, a fragmented control frame, …). */
    public static final String PROTOCOL_ERROR = "websocket_protocol_error";
    /** A TLS client asked to renegotiate on the {@code /wss} listener ({@code TlsRenegotiationGuard}). */
    public static final String TLS_RENEGOTIATION = "tls_renegotiation";
    /** Our HTTP upgrade request was not answered with 101 (dialling), or a peer's was refused (listening). */
    public static final String UPGRADE_FAILED = "websocket_upgrade_failed";

    private final String reason;

    WebSocketException(String reason, String message) {
        super(message);
        this.reason = reason;
    }

    public String reason() {
        return reason;
    }
}
