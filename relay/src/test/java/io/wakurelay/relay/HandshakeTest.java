package io.wakurelay.relay;

import io.wakurelay.protocol.proto.Frame;
import io.wakurelay.protocol.proto.Goodbye;
import io.wakurelay.protocol.proto.Hello;
import io.wakurelay.protocol.proto.Ping;
import io.wakurelay.testkit.TestMessages;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.wakurelay.testkit.TestMessages.PUBSUB_TOPIC;
import static org.assertj.core.api.Assertions.assertThat;

class HandshakeTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private final List<AutoCloseable> resources = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable resource : resources) {
            resource.close();
        }
    }

    private TestRelay relay(RelayConfig config) {
        TestRelay relay = TestRelay.start(config);
        resources.add(relay);
        return relay;
    }

    private RawPeer raw(TestRelay relay) throws IOException {
        RawPeer peer = RawPeer.connect(relay.address());
        resources.add(0, peer);
        return peer;
    }

    @Test
    void aPeerThatNeverSaysHelloIsRefusedAfterTheHandshakeTimeout() throws IOException {
        TestRelay relay = relay(TestRelay.config("r").withHandshakeTimeout(Duration.ofMillis(300)));
        RawPeer silent = raw(relay);

        Frame first = silent.read(WAIT);
        assertThat(first.hasHello()).as("the relay says Hello first").isTrue();
        assertThat(first.getHello().getNodeId()).isEqualTo("r");
        assertThat(silent.awaitGoodbye(WAIT).getReason()).isEqualTo(Goodbye.Reason.HANDSHAKE_TIMEOUT);
        assertThat(silent.closedWithin(WAIT)).isTrue();
        assertThat(relay.counter("waku.relay.connections.rejected", "reason", "handshake_timeout")).isEqualTo(1);
        assertThat(relay.relay.peers()).isEmpty();
    }

    @Test
    void aPeerOfAnotherProtocolVersionIsRefused() throws IOException {
        TestRelay relay = relay(TestRelay.config("r"));
        RawPeer future = raw(relay);

        future.send(Frame.newBuilder().setHello(Hello.newBuilder().setProtocolVersion(2).setNodeId("future")).build());

        assertThat(future.awaitGoodbye(WAIT).getReason()).isEqualTo(Goodbye.Reason.PROTOCOL_VERSION_MISMATCH);
        assertThat(future.closedWithin(WAIT)).isTrue();
        assertThat(relay.counter("waku.relay.connections.rejected", "reason", "protocol_version_mismatch")).isEqualTo(1);
    }

    @Test
    void aPeerWhoseFirstFrameIsNotHelloIsRefused() throws IOException {
        TestRelay relay = relay(TestRelay.config("r"));
        RawPeer rude = raw(relay);

        rude.send(Frame.newBuilder().setPing(Ping.newBuilder().setNonce(1)).build());

        assertThat(rude.awaitGoodbye(WAIT).getReason()).isEqualTo(Goodbye.Reason.PROTOCOL_VIOLATION);
        assertThat(relay.counter("waku.relay.connections.rejected", "reason", "protocol_violation")).isEqualTo(1);
    }

    @Test
    void aHelloWithAnInvalidTopicIsRefused() throws IOException {
        TestRelay relay = relay(TestRelay.config("r"));
        RawPeer peer = raw(relay);

        peer.send(RawPeer.hello("bad-topics", List.of("not a topic")));

        assertThat(peer.awaitGoodbye(WAIT).getReason()).isEqualTo(Goodbye.Reason.PROTOCOL_VIOLATION);
        assertThat(relay.relay.peers()).isEmpty();
    }

    @Test
    void connectionsPastTheLimitAreRefusedBeforeAnythingIsRead() throws IOException {
        TestRelay relay = relay(TestRelay.config("r").withMaxConnections(2));
        RawPeer first = raw(relay);
        first.handshake("first", List.of(PUBSUB_TOPIC));
        RawPeer second = raw(relay);
        second.handshake("second", List.of(PUBSUB_TOPIC));

        RawPeer third = raw(relay);
        third.send(RawPeer.hello("third", List.of(PUBSUB_TOPIC)));
        Frame answer = third.read(WAIT);

        assertThat(answer.hasGoodbye()).as("a Goodbye instead of a Hello: %s", answer).isTrue();
        assertThat(answer.getGoodbye().getReason()).isEqualTo(Goodbye.Reason.TOO_MANY_CONNECTIONS);
        assertThat(third.closedWithin(WAIT)).isTrue();
        assertThat(relay.counter("waku.relay.connections.rejected", "reason", "too_many_connections")).isEqualTo(1);
        Eventually.asserted(() -> assertThat(relay.peerIds()).containsExactlyInAnyOrder("first", "second"));

        first.close();
        Eventually.until("the slot of the first peer is free", () -> relay.relay.peers().size() == 1);
        RawPeer fourth = raw(relay);
        assertThat(fourth.handshake("fourth", List.of(PUBSUB_TOPIC)).getNodeId()).isEqualTo("r");
    }

    @Test
    void oneAddressHoldsAtMostItsLimitOfInboundConnectionsWhileOtherAddressesStillGetIn() throws IOException {
        TestRelay relay = relay(TestRelay.config("r").withMaxInboundPerAddress(2));
        RawPeer first = raw(relay);
        first.handshake("first", List.of(PUBSUB_TOPIC));
        RawPeer second = raw(relay);
        second.handshake("second", List.of(PUBSUB_TOPIC));

        RawPeer third = raw(relay); // a third one from 127.0.0.1
        third.send(RawPeer.hello("third", List.of(PUBSUB_TOPIC)));
        Frame answer = third.read(WAIT);
        assertThat(answer.hasGoodbye()).as("a Goodbye instead of a Hello: %s", answer).isTrue();
        assertThat(answer.getGoodbye().getReason()).isEqualTo(Goodbye.Reason.TOO_MANY_CONNECTIONS);
        assertThat(answer.getGoodbye().getDetail()).contains("from 127.0.0.1");
        assertThat(third.closedWithin(WAIT)).isTrue();
        assertThat(relay.counter("waku.relay.connections.rejected", "reason", "too_many_from_address")).isEqualTo(1);

        RawPeer elsewhere = RawPeer.connectFrom(relay.address(), InetAddress.getByName("127.0.0.2"));
        resources.add(0, elsewhere);
        assertThat(elsewhere.handshake("elsewhere", List.of(PUBSUB_TOPIC)).getNodeId()).as("another address gets in").isEqualTo("r");

        first.close();
        Eventually.until("the first peer's place is free", () -> relay.relay.peers().size() == 2);
        RawPeer fourth = raw(relay);
        assertThat(fourth.handshake("fourth", List.of(PUBSUB_TOPIC)).getNodeId()).isEqualTo("r");
        assertThat(relay.counter("waku.relay.connections.rejected", "reason", "too_many_connections")).isZero();
    }

    @Test
    void twoNodesThatDialEachOtherKeepExactlyOneConnectionDialledByTheLowerId() {
        TestRelay a = relay(TestRelay.config("dup-a"));
        TestRelay b = relay(TestRelay.config("dup-b"));
        a.relay.addPeer(b.address());
        b.relay.addPeer(a.address());

        Eventually.until("connected", () -> a.connectedTo(b) && b.connectedTo(a));
        // both dialers run until they see the other's connection; the survivor is the same on both sides
        Eventually.asserted(() -> {
            assertThat(a.relay.peers()).singleElement().extracting(PeerInfo::direction).isEqualTo("outbound");
            assertThat(b.relay.peers()).singleElement().extracting(PeerInfo::direction).isEqualTo("inbound");
        });
        PeerInfo kept = a.relay.peers().get(0);
        PublishResult sent = a.publish(TestMessages.message(1, 10, TestMessages.nowNanos()));
        Eventually.until("b got it once", () -> b.timesAccepted(sent.hash()) == 1);
        assertThat(a.relay.peers()).as("still the same connection").singleElement()
                .returns(kept.remoteAddress(), PeerInfo::remoteAddress)
                .returns(kept.connectedSince(), PeerInfo::connectedSince);
    }

    @Test
    void aRelayDoesNotConnectToItself() {
        TestRelay relay = relay(TestRelay.config("narcissus"));
        relay.relay.addPeer(relay.address());

        Eventually.until("the self connection was refused",
                () -> relay.counter("waku.relay.connections.rejected", "reason", "duplicate_connection") >= 1);
        assertThat(relay.relay.peers()).isEmpty();
    }
}
