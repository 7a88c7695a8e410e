package io.wakurelay.relay;

/** Where a received Publish frame came from: a peer connection, or the in-process pseudo-peer of {@code inject}. */
interface MessageSource {
    /** The connection the message must not be sent back to; null for an in-process source. */
    PeerSession peer();

    /** A message from this source was refused (the invalid-message metric has already counted it). */
    void refused(String reason);
}
