package io.wakurelay.p2p.connection;

/** Serves one protocol id: gives each inbound stream negotiated for it a {@link StreamHandler}. */
@FunctionalInterface
public interface ProtocolHandler {
    /**
     * Called on the stream's event loop once the peer's proposal was accepted.
     *
     * @return the stream's handler. To refuse the stream, reset it here and return any handler (none of its methods
     *         is called), or return null (the stream is then reset)
     */
    StreamHandler onStream(Stream stream);
}
