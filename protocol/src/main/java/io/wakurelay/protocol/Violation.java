package io.wakurelay.protocol;

/**
 * Why an input was rejected. The {@link #label()} is the value of the {@code reason} tag on the
 * invalid-input metrics, so it is part of the metrics contract (docs/metrics.md).
 */
public enum Violation {
    /** The length prefix announces more than the maximum frame size. */
    FRAME_TOO_LARGE("frame_too_large", true),
    /** The length prefix is not a valid unsigned varint of at most 5 bytes. */
    MALFORMED_LENGTH_PREFIX("malformed_length_prefix", true),
    /** The connection ended in the middle of a frame. */
    TRUNCATED_FRAME("truncated_frame", true),
    /** The frame is not a valid protobuf Frame, or carries no known kind. */
    MALFORMED_FRAME("malformed_frame", true),
    /** The WakuMessage is larger than the maximum message size. */
    MESSAGE_TOO_LARGE("message_too_large", false),
    /** The WakuMessage bytes are not a valid protobuf WakuMessage. */
    MALFORMED_MESSAGE("malformed_message", false),
    /** A string field is not valid UTF-8. */
    INVALID_UTF8("invalid_utf8", false),
    /** The pubsub topic is empty, too long or not of a known form. */
    INVALID_PUBSUB_TOPIC("invalid_pubsub_topic", false),
    /** The content topic is absent. */
    MISSING_CONTENT_TOPIC("missing_content_topic", false),
    /** The content topic is not /{application}/{version}/{topic}/{encoding} (optionally with a generation prefix). */
    INVALID_CONTENT_TOPIC("invalid_content_topic", false),
    /** meta is longer than 64 bytes. */
    META_TOO_LARGE("meta_too_large", false),
    /** The timestamp is further from the receiver's clock than the configured window allows. */
    TIMESTAMP_OUT_OF_WINDOW("timestamp_out_of_window", false);

    private final String label;
    private final boolean breaksFraming;

    Violation(String label, boolean breaksFraming) {
        this.label = label;
        this.breaksFraming = breaksFraming;
    }

    /** Metric tag value and the short name used in error messages. */
    public String label() {
        return label;
    }

    /**
     * True when the byte stream can no longer be trusted to be in step (the connection must be
     * closed); false when only the one message is bad and the stream goes on.
     */
    public boolean breaksFraming() {
        return breaksFraming;
    }
}
