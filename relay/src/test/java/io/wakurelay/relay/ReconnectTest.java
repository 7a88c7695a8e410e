package io.wakurelay.relay;

import io.wakurelay.testkit.TestMessages;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ReconnectTest {

    @Test
    void aStaticPeerThatRestartsOnTheSamePortIsReconnected() {
        TestRelay b = TestRelay.start(TestRelay.config("b"));
        InetSocketAddress address = b.address();
        try (TestRelay a = TestRelay.start(TestRelay.config("a").withStaticPeers(List.of(address)))) {
            Eventually.until("connected", () -> a.connectedTo(b));

            b.close();
            Eventually.until("a saw b go", () -> a.relay.peers().isEmpty());
            assertThat(a.counter("waku.relay.peer.disconnects", "reason", "shutdown")).isEqualTo(1);

            try (TestRelay restarted = TestRelay.start(TestRelay.config("b").withListenAddress(address))) {
                Eventually.until("a redialled b", () -> a.connectedTo(restarted) && restarted.connectedTo(a));
                PublishResult sent = a.publish(TestMessages.message(1, 100, TestMessages.nowNanos()));
                Eventually.until("the restarted b receives again", () -> restarted.timesAccepted(sent.hash()) == 1);
            }
        }
    }

    @Test
    void peersAddedAndRemovedAtRunTimeAreDialledAndLeft() {
        try (TestRelay a = TestRelay.start(TestRelay.config("a"));
             TestRelay b = TestRelay.start(TestRelay.config("b"))) {
            a.relay.addPeer(b.address());
            Eventually.until("connected", () -> a.connectedTo(b) && b.connectedTo(a));

            a.relay.removePeer(b.address());
            Eventually.until("b saw a leave", () -> b.relay.peers().isEmpty() && a.relay.peers().isEmpty());
            assertThat(b.counter("waku.relay.peer.disconnects", "reason", "peer_removed")).isEqualTo(1);
            assertThat(a.counter("waku.relay.peer.disconnects", "reason", "peer_removed")).isEqualTo(1);

            a.relay.addPeer(b.address());
            Eventually.until("connected again", () -> a.connectedTo(b) && b.connectedTo(a));
        }
    }

    @Test
    void aStaticPeerThatIsDownAtStartIsDialledUntilItComesUp() {
        InetSocketAddress address;
        try (TestRelay placeholder = TestRelay.start(TestRelay.config("placeholder"))) {
            address = placeholder.address(); // a port that was free a moment ago
        }
        try (TestRelay a = TestRelay.start(TestRelay.config("a").withStaticPeers(List.of(address)))) {
            Eventually.until("a tried and failed at least once", () -> a.relay.peers().isEmpty());
            try (TestRelay late = TestRelay.start(TestRelay.config("late").withListenAddress(address))) {
                Eventually.until("connected once the peer is up", () -> a.connectedTo(late));
            }
        }
    }
}
