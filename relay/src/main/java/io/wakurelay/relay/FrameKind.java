package io.wakurelay.relay;

import io.wakurelay.protocol.proto.Frame;

import java.util.Locale;

/** The kinds of frame, as the {@code kind} tag of the frame metrics names them. */
enum FrameKind {
    HELLO, SUBSCRIBE, UNSUBSCRIBE, PUBLISH, PING, PONG, GOODBYE;

    String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    static FrameKind of(Frame frame) {
        return switch (frame.getKindCase()) {
            case HELLO -> HELLO;
            case SUBSCRIBE -> SUBSCRIBE;
            case UNSUBSCRIBE -> UNSUBSCRIBE;
            case PUBLISH -> PUBLISH;
            case PING -> PING;
            case PONG -> PONG;
            case GOODBYE -> GOODBYE;
            // FrameCodec.parse refuses frames of no known kind, so this is a bug, not bad input
            case KIND_NOT_SET -> throw new IllegalArgumentException("frame has no kind");
        };
    }
}
