package io.wakurelay.relay;

import io.wakurelay.protocol.proto.Frame;
import io.wakurelay.protocol.proto.Goodbye;
import io.wakurelay.protocol.proto.Hello;
import io.wakurelay.protocol.proto.Ping;
import io.wakurelay.protocol.proto.Pong;
import io.wakurelay.protocol.proto.Subscribe;
import io.wakurelay.protocol.proto.Unsubscribe;

import java.util.Collection;

/** Builders of the control frames the relay sends. */
final class ControlFrames {
    /** The wire protocol version this relay speaks (docs/protocol.md). */
    static final int PROTOCOL_VERSION = 1;
    /** Goodbye details are for humans; a long one is cut so a Goodbye stays small. */
    private static final int MAX_DETAIL_LENGTH = 200;

    private ControlFrames() {
    }

    static Frame hello(String nodeId, String listenAddress, Collection<String> topics) {
        return Frame.newBuilder().setHello(Hello.newBuilder().setProtocolVersion(PROTOCOL_VERSION).setNodeId(nodeId)
                .setListenAddress(listenAddress).addAllPubsubTopics(topics)).build();
    }

    static Frame subscribe(Collection<String> topics) {
        return Frame.newBuilder().setSubscribe(Subscribe.newBuilder().addAllPubsubTopics(topics)).build();
    }

    static Frame unsubscribe(Collection<String> topics) {
        return Frame.newBuilder().setUnsubscribe(Unsubscribe.newBuilder().addAllPubsubTopics(topics)).build();
    }

    static Frame ping(long nonce) {
        return Frame.newBuilder().setPing(Ping.newBuilder().setNonce(nonce)).build();
    }

    static Frame pong(long nonce) {
        return Frame.newBuilder().setPong(Pong.newBuilder().setNonce(nonce)).build();
    }

    static Frame goodbye(Goodbye.Reason reason, String detail) {
        String shortDetail = detail.length() > MAX_DETAIL_LENGTH ? detail.substring(0, MAX_DETAIL_LENGTH) : detail;
        return Frame.newBuilder().setGoodbye(Goodbye.newBuilder().setReason(reason).setDetail(shortDetail)).build();
    }
}
