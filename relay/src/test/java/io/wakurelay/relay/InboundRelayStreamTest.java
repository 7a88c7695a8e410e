package io.wakurelay.relay;

import io.wakurelay.p2p.connection.Stream;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.relay.proto.Message;
import io.wakurelay.relay.proto.RPC;
import io.wakurelay.testkit.Closer;
import io.wakurelay.testkit.Eventually;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a peer's relay stream may make this node hold: one incomplete RPC, for at most the read timeout, on one
 * stream per peer.
 */
class InboundRelayStreamTest {
    private static final int PART = 40_000;
    @RegisterExtension
    final Closer closer = new Closer();

    private static TestNode node(Duration rpcReadTimeout) {
        return new TestNode(0, TestNode.fastConfig().toBuilder().rpcReadTimeout(rpcReadTimeout).build(),
                PrivateKey.generateEd25519());
    }

    private static RPC subscribe() {
        return RPC.newBuilder().addSubscriptions(RPC.SubOpts.newBuilder().setSubscribe(true).setTopicid(Messages.TOPIC)).build();
    }

    /** A length-prefixed publish RPC of one valid 100 kB message. */
    private static byte[] publish(int index) {
        return RawRelayPeer.lengthPrefixed(RPC.newBuilder().addPublish(Message.newBuilder().setTopic(Messages.TOPIC)
                .setData(Messages.message(index, 100_000).toByteString())).build());
    }

    private static double buffered(TestNode node) {
        return node.registry.find("waku.relay.inbound.buffered.bytes").gauge().value();
    }

    private static double resets(TestNode node, String reason) {
        return node.registry.find("waku.relay.inbound.stream.resets").tag("reason", reason).counter().count();
    }

    private static double accepted(TestNode node) {
        return node.registry.find("waku.relay.messages.accepted").counter().count();
    }

    @Test
    void anRpcLeftIncompleteIsResetAfterTheReadTimeoutAndItsBytesFreedWhileTheConnectionStays() {
        TestNode node = closer.keep(node(Duration.ofSeconds(1)));
        RawRelayPeer peer = closer.keep(new RawRelayPeer(1));
        peer.connect(node.address());
        Stream stalled = peer.stream();
        peer.send(subscribe());
        byte[] rpc = publish(1);

        long sent = System.nanoTime();
        peer.sendRaw(Arrays.copyOf(rpc, PART));
        Eventually.until(() -> buffered(node) == PART);
        Eventually.until(() -> !stalled.isOpen());
        long heldNanos = System.nanoTime() - sent;

        assertThat(Duration.ofNanos(heldNanos)).as("not reset before the timeout").isGreaterThanOrEqualTo(Duration.ofSeconds(1));
        assertThat(resets(node, "rpc_read_timeout")).isEqualTo(1);
        Eventually.until(() -> buffered(node) == 0);
        assertThat(peer.connectedTo(node.host)).isTrue();

        peer.openNewStream();
        peer.sendRaw(rpc);
        Eventually.until(() -> accepted(node) == 1);
        assertThat(resets(node, "rpc_read_timeout")).isEqualTo(1);
        assertThat(resets(node, "replaced")).as("the reset stream no longer counts as the peer's").isZero();
    }

    @Test
    void rpcsArrivingInSlowPiecesAreAcceptedWhenEachCompletesWithinTheTimeout() throws InterruptedException {
        TestNode node = closer.keep(node(Duration.ofSeconds(3)));
        RawRelayPeer peer = closer.keep(new RawRelayPeer(1));
        peer.connect(node.address());
        peer.send(subscribe());

        // five RPCs, each in two pieces 1 s apart: 5 s in all, longer than the timeout, each RPC well within it (the
        // 2 s to spare keep a loaded machine's scheduling delays from resetting the stream)
        for (int i = 0; i < 5; i++) {
            byte[] rpc = publish(i);
            peer.sendRaw(Arrays.copyOf(rpc, PART));
            Thread.sleep(1000);
            peer.sendRaw(Arrays.copyOfRange(rpc, PART, rpc.length));
        }

        Eventually.until(() -> accepted(node) == 5);
        assertThat(resets(node, "rpc_read_timeout")).isZero();
    }

    @Test
    void aNewRelayStreamFromAPeerResetsItsOlderOneSoThatOnlyOneRpcIsHeld() {
        TestNode node = closer.keep(node(Duration.ofSeconds(30)));
        RawRelayPeer peer = closer.keep(new RawRelayPeer(1));
        peer.connect(node.address());
        peer.send(subscribe());

        // the stream connect() opened, then eight more, each with an RPC begun on it
        List<Stream> streams = new ArrayList<>();
        byte[] last = null;
        for (int i = 0; i < 8; i++) {
            streams.add(peer.openNewStream());
            last = publish(i);
            peer.sendRaw(Arrays.copyOf(last, PART));
        }

        Eventually.until(() -> resets(node, "replaced") == 8);
        Eventually.until(() -> streams.stream().filter(Stream::isOpen).count() == 1);
        assertThat(streams.get(7).isOpen()).isTrue();
        Eventually.until(() -> buffered(node) == PART);

        peer.sendRaw(Arrays.copyOfRange(last, PART, last.length));
        Eventually.until(() -> accepted(node) == 1);
        Eventually.until(() -> buffered(node) == 0);
    }
}
