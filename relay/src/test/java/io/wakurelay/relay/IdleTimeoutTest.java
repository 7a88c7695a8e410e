package io.wakurelay.relay;

import io.wakurelay.protocol.proto.Frame;
import io.wakurelay.protocol.proto.Goodbye;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

import static io.wakurelay.testkit.TestMessages.PUBSUB_TOPIC;
import static org.assertj.core.api.Assertions.assertThat;

/** Liveness: a quiet connection is pinged at half the idle timeout and closed if nothing comes back. */
class IdleTimeoutTest {
    /** Short, for the peer that never answers. */
    private static final Duration SHORT_IDLE = Duration.ofMillis(400);
    /** Long enough that a peer on a loaded test machine answers a Ping in time (it has half of this). */
    private static final Duration IDLE = Duration.ofSeconds(2);
    private static final Duration WAIT = Duration.ofSeconds(10);

    private static RelayConfig config(String nodeId) {
        return TestRelay.config(nodeId).withIdleTimeout(IDLE);
    }

    @Test
    void aPeerThatDoesNotAnswerAPingIsDisconnected() throws IOException {
        try (TestRelay relay = TestRelay.start(TestRelay.config("r").withIdleTimeout(SHORT_IDLE));
             RawPeer mute = RawPeer.connect(relay.address())) {
            mute.handshake("mute", List.of(PUBSUB_TOPIC));

            Frame ping = mute.read(WAIT);
            assertThat(ping.hasPing()).as("a Ping first: %s", ping).isTrue();
            assertThat(mute.awaitGoodbye(WAIT).getReason()).isEqualTo(Goodbye.Reason.IDLE_TIMEOUT);
            Eventually.until("counted", () -> relay.counter("waku.relay.peer.disconnects", "reason", "idle_timeout") == 1);
        }
    }

    @Test
    void aPeerThatAnswersPingsStaysConnected() throws IOException {
        try (TestRelay relay = TestRelay.start(config("r"));
             RawPeer lively = RawPeer.connect(relay.address())) {
            lively.handshake("lively", List.of(PUBSUB_TOPIC));

            for (int pings = 0; pings < 3; ) {
                Frame frame = lively.read(WAIT);
                assertThat(frame.hasGoodbye()).as("no Goodbye: %s", frame).isFalse();
                if (frame.hasPing()) {
                    lively.pong(frame.getPing().getNonce());
                    pings++;
                }
            }

            assertThat(relay.peerIds()).containsExactly("lively");
            assertThat(relay.counter("waku.relay.frames.received", "kind", "pong")).isGreaterThanOrEqualTo(2);
        }
    }

    @Test
    void twoQuietRelaysKeepTheirConnectionAlive() {
        try (TestRelay a = TestRelay.start(config("a"));
             TestRelay b = TestRelay.start(config("b").withStaticPeers(List.of(a.address())))) {
            Eventually.until("connected", () -> a.connectedTo(b));

            Eventually.until("several idle periods passed with Pings answered",
                    () -> a.counter("waku.relay.frames.received", "kind", "pong") >= 2
                            && b.counter("waku.relay.frames.received", "kind", "pong") >= 2);

            assertThat(a.connectedTo(b) && b.connectedTo(a)).isTrue();
            assertThat(a.counter("waku.relay.peer.disconnects", "reason", "idle_timeout")).isZero();
            assertThat(b.counter("waku.relay.peer.disconnects", "reason", "idle_timeout")).isZero();
        }
    }
}
