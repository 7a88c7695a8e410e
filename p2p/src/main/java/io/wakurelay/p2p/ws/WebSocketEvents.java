package io.wakurelay.p2p.ws;

import java.util.List;

/** What the WebSocket transport tells the host's metrics. */
public interface WebSocketEvents {
    /** Why an HTTP request on the WebSocket port was answered with a 4xx and the socket closed. */
    List<String> REFUSAL_REASONS = List.of("not_websocket", "wrong_path", "bad_request", "unsupported_version");

    /** An HTTP request on the WebSocket port was refused, for one of {@link #REFUSAL_REASONS}. */
    void requestRefused(String reason);

    /**
     * A peer's WebSocket ping was not answered: a pong to it was still waiting to be written, or its connection was
     * past its write high water mark.
     */
    void pongDropped();

    /** A TLS client's renegotiation was refused and its connection closed ({@code TlsRenegotiationGuard}). */
    void renegotiationRefused();

    /** Reading the connection paused (a {@code ReadPauses} reason's label): a ping came while it was unwritable. */
    void readPaused(String reason);
}
