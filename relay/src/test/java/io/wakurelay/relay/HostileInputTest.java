package io.wakurelay.relay;

import com.google.protobuf.ByteString;
import io.wakurelay.protocol.proto.Frame;
import io.wakurelay.protocol.proto.Goodbye;
import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.testkit.TestMessages;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static io.wakurelay.testkit.TestMessages.PUBSUB_TOPIC;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Peers that send what no honest node sends. Each is refused at a bounded cost with a counted reason and a
 * disconnect, and the relay goes on serving a well-behaved peer connected to it all along.
 */
class HostileInputTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final int MAX_INVALID = 3;
    private TestRelay relay;
    private TestRelay good;
    private final List<RawPeer> raws = new ArrayList<>();
    private int published;

    @BeforeEach
    void start() {
        relay = TestRelay.start(TestRelay.config("target").withMaxInvalidMessagesPerPeer(MAX_INVALID));
        good = TestRelay.start(TestRelay.config("good").withStaticPeers(List.of(relay.address())));
        Eventually.until("the good peer is connected", () -> relay.connectedTo(good));
    }

    @AfterEach
    void close() throws IOException {
        for (RawPeer raw : raws) {
            raw.close();
        }
        good.close();
        relay.close();
    }

    private RawPeer handshaken(String nodeId) throws IOException {
        RawPeer raw = RawPeer.connect(relay.address());
        raws.add(raw);
        raw.handshake(nodeId, List.of(PUBSUB_TOPIC));
        Eventually.until(nodeId + " is a peer", () -> relay.peerIds().contains(nodeId));
        return raw;
    }

    /** The good peer's messages still arrive, and the relay's still reach it. */
    private void assertGoodPeerUnaffected() {
        assertThat(relay.connectedTo(good)).isTrue();
        PublishResult fromGood = good.publish(TestMessages.message(1000 + published++, 500, TestMessages.nowNanos()));
        Eventually.until("the relay accepted the good peer's message", () -> relay.timesAccepted(fromGood.hash()) == 1);
        PublishResult fromRelay = relay.publish(TestMessages.message(1000 + published++, 500, TestMessages.nowNanos()));
        Eventually.until("the good peer got the relay's message", () -> good.timesAccepted(fromRelay.hash()) == 1);
    }

    @Test
    void aLengthPrefixPastTheMaxFrameSizeIsRefusedBeforeTheFrameIsBuffered() throws IOException {
        RawPeer raw = handshaken("oversized");

        raw.sendRaw(new byte[] {(byte) 0x80, (byte) 0x80, (byte) 0x80, 0x01}); // 2 MiB announced, nothing sent

        assertThat(raw.awaitGoodbye(WAIT).getReason()).isEqualTo(Goodbye.Reason.FRAME_TOO_LARGE);
        assertThat(raw.closedWithin(WAIT)).isTrue();
        assertThat(relay.counter("waku.relay.messages.invalid", "reason", "frame_too_large")).isEqualTo(1);
        Eventually.until("counted", () -> relay.counter("waku.relay.peer.disconnects", "reason", "frame_too_large") == 1);
        assertGoodPeerUnaffected();
    }

    @Test
    void aVarintThatNeverEndsIsRefused() throws IOException {
        RawPeer raw = handshaken("endless-varint");

        byte[] endless = new byte[10];
        Arrays.fill(endless, (byte) 0x80);
        raw.sendRaw(endless);

        assertThat(raw.awaitGoodbye(WAIT).getReason()).isEqualTo(Goodbye.Reason.PROTOCOL_VIOLATION);
        assertThat(relay.counter("waku.relay.messages.invalid", "reason", "malformed_length_prefix")).isEqualTo(1);
        assertGoodPeerUnaffected();
    }

    @Test
    void randomBytesAreRefused() throws IOException {
        RawPeer raw = handshaken("noise");
        byte[] noise = new byte[64 * 1024];
        new Random(7).nextBytes(noise);

        try {
            raw.sendRaw(noise);
        } catch (IOException e) {
            // the relay may close while the noise is still being written
        }

        assertThat(raw.closedWithin(WAIT)).isTrue();
        Eventually.until("refused as bad framing", () ->
                relay.counter("waku.relay.messages.invalid", "reason", "frame_too_large")
                        + relay.counter("waku.relay.messages.invalid", "reason", "malformed_frame")
                        + relay.counter("waku.relay.messages.invalid", "reason", "malformed_length_prefix") == 1);
        assertGoodPeerUnaffected();
    }

    @Test
    void aFrameThatIsNotAFrameIsRefused() throws IOException {
        RawPeer raw = handshaken("not-a-frame");

        raw.sendRaw(new byte[] {5, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF});

        assertThat(raw.awaitGoodbye(WAIT).getReason()).isEqualTo(Goodbye.Reason.PROTOCOL_VIOLATION);
        assertThat(relay.counter("waku.relay.messages.invalid", "reason", "malformed_frame")).isEqualTo(1);
        assertGoodPeerUnaffected();
    }

    @Test
    void aPeerThatDisconnectsInTheMiddleOfAFrameIsCountedAndForgotten() throws IOException {
        RawPeer raw = handshaken("cut-short");
        byte[] whole = RawPeer.bytes(RawPeer.publish(PUBSUB_TOPIC, TestMessages.message(1, 5_000, TestMessages.nowNanos())));

        raw.sendRaw(Arrays.copyOf(whole, whole.length / 2));
        raw.close();

        Eventually.until("the truncated frame is counted",
                () -> relay.counter("waku.relay.messages.invalid", "reason", "truncated_frame") == 1);
        Eventually.until("the peer is gone", () -> !relay.peerIds().contains("cut-short"));
        assertThat(relay.counter("waku.relay.peer.disconnects", "reason", "closed")).isEqualTo(1);
        assertThat(relay.counter("waku.relay.messages.received", "source", "peer")).as("nothing was half-read").isZero();
        assertGoodPeerUnaffected();
    }

    @Test
    void validFramesWithInvalidMessagesAreRefusedAndThePeerIsDisconnectedPastItsAllowance() throws IOException {
        RawPeer raw = handshaken("invalid-messages");
        WakuMessage badContentTopic = TestMessages.message(1, 100, TestMessages.nowNanos()).toBuilder()
                .setContentTopic("no-slashes").build();

        for (int i = 0; i < MAX_INVALID; i++) {
            raw.send(RawPeer.publish(PUBSUB_TOPIC, badContentTopic.toBuilder().setTimestamp(TestMessages.nowNanos() + i).build()));
        }
        raw.send(RawPeer.publish(PUBSUB_TOPIC, ByteString.copyFrom(new byte[] {(byte) 0xFF, 0x01})));
        Goodbye goodbye = raw.awaitGoodbye(WAIT);

        assertThat(goodbye.getReason()).isEqualTo(Goodbye.Reason.PROTOCOL_VIOLATION);
        assertThat(goodbye.getDetail()).contains("more than " + MAX_INVALID + " invalid messages");
        assertThat(relay.counter("waku.relay.messages.invalid", "reason", "invalid_content_topic")).isEqualTo(MAX_INVALID);
        assertThat(relay.counter("waku.relay.messages.invalid", "reason", "malformed_message")).isEqualTo(1);
        assertThat(relay.counter("waku.relay.messages.accepted")).isZero();
        assertThat(good.counter("waku.relay.messages.received", "source", "peer")).as("nothing invalid was relayed").isZero();
        assertGoodPeerUnaffected();
    }

    @Test
    void messagesOnTopicsTheRelayDoesNotSubscribeToAreRefusedWithoutADecode() throws IOException {
        RawPeer raw = handshaken("off-topic");

        raw.send(RawPeer.publish("/waku/2/rs/0/9", TestMessages.message(1, 100, TestMessages.nowNanos())));
        raw.send(RawPeer.publish("bad topic", TestMessages.message(2, 100, TestMessages.nowNanos())));

        Eventually.until("both refused", () -> relay.counter("waku.relay.messages.invalid", "reason", "not_subscribed") == 1
                && relay.counter("waku.relay.messages.invalid", "reason", "invalid_pubsub_topic") == 1);
        assertThat(relay.counters.decodes()).isZero();
        assertGoodPeerUnaffected();
    }

    @Test
    void garbageInsteadOfAHelloIsRefused() throws IOException {
        RawPeer raw = RawPeer.connect(relay.address());
        raws.add(raw);

        raw.sendRaw(new byte[] {3, 1, 2, 3});

        Frame hello = raw.read(WAIT);
        assertThat(hello.hasHello()).isTrue();
        assertThat(raw.awaitGoodbye(WAIT).getReason()).isEqualTo(Goodbye.Reason.PROTOCOL_VIOLATION);
        assertThat(relay.counter("waku.relay.connections.rejected", "reason", "protocol_violation")).isEqualTo(1);
        assertGoodPeerUnaffected();
    }

    @Test
    void aSecondHelloIsAViolation() throws IOException {
        RawPeer raw = handshaken("chatty");

        raw.send(RawPeer.hello("chatty", List.of(PUBSUB_TOPIC)));

        assertThat(raw.awaitGoodbye(WAIT).getReason()).isEqualTo(Goodbye.Reason.PROTOCOL_VIOLATION);
        assertGoodPeerUnaffected();
    }
}
