package io.wakurelay.p2p;

/** Serves one protocol id: gives each inbound stream negotiated for it a {@link StreamHandler}. */
@FunctionalInterface
public interface ProtocolHandler {
    /**
     * Called on the stream's event loop once the peer's proposal was accepted.
     *
     * @return the stream's handler; may not be null (reset the stream and return a handler that ignores it to refuse)
     */
    StreamHandler onStream(Stream stream);
}
