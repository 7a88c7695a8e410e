package io.wakurelay.protocol;

import io.wakurelay.protocol.proto.Frame;

/** A received frame: a Publish located in the frame buffer (not yet decoded), or a parsed control frame. */
public sealed interface InboundFrame {

    /**
     * A Publish frame. The message is the region {@code [messageIndex, messageIndex + messageLength)} of the
     * frame buffer; {@link EnvelopeDecoder} decodes it.
     */
    record Publish(String pubsubTopic, int messageIndex, int messageLength) implements InboundFrame {
    }

    /** Any other frame, parsed by the generated code (control frames are small). */
    record Control(Frame frame) implements InboundFrame {
    }
}
