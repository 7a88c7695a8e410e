package io.wakurelay.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.wakurelay.p2p.connection.Connection;
import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.testkit.Closer;
import io.wakurelay.testkit.Eventually;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two nodes that dial each other at once (discovery on both sides finds the other in the same lookup round) each keep
 * the same one of the two connections and close the other: the relay peer must live on in the connection kept. It
 * was removed when the replaced connection closed, leaving the two nodes connected but not relay peers of each other
 * (seen in the loadgen's {@code discover} run: pairs of 20 nodes connected and never meshed).
 */
class ReplacedConnectionTest {
    @RegisterExtension
    final Closer closer = new Closer();

    @Test
    void aRelayPeerLivesOnInTheConnectionThatReplacedItsFirst() {
        // a window wide enough that the second connection counts as a simultaneous open: it replaces the first on
        // both sides when its dialer's peer id is the smaller one
        TestNode x = node(0);
        TestNode y = node(1);
        boolean xSmaller = Arrays.compareUnsigned(x.host.peerId().bytes(), y.host.peerId().bytes()) < 0;
        TestNode smaller = xSmaller ? x : y;
        TestNode larger = xSmaller ? y : x;
        Connection first = larger.host.dial(smaller.address()).block(Duration.ofSeconds(10));
        Eventually.until("relay peers of each other", Duration.ofSeconds(10),
                () -> relayPeer(larger, smaller.host.peerId()) != null
                        && relayPeer(smaller, larger.host.peerId()) != null);

        // without /p2p the dial does not know it reaches a peer it is connected to: a real second connection
        Connection second = smaller.host.dial(larger.address().withoutPeerId()).block(Duration.ofSeconds(10));

        Eventually.until("the first connection closed", Duration.ofSeconds(10), () -> !first.isOpen());
        assertThat(second.isOpen()).isTrue();
        Eventually.until("relay peers of each other in the connection kept", Duration.ofSeconds(10),
                () -> onKeptConnection(larger, smaller) && onKeptConnection(smaller, larger));
        PublishResult published = smaller.relay.publish(Messages.TOPIC, Messages.message(1, 100)).block();
        Eventually.until("the message crossed the connection kept", Duration.ofSeconds(10),
                () -> larger.received.containsKey(published.hash()));
    }

    private TestNode node(int index) {
        return closer.keep(new TestNode(index, TestNode.fastConfig(), PrivateKey.generateEd25519(), 0,
                b -> b.duplicateWindow(Duration.ofMinutes(1))));
    }

    private static RelayPeer relayPeer(TestNode node, PeerId peer) {
        return node.relay.peers().stream().filter(p -> p.peerId().equals(peer) && p.topics().contains(Messages.TOPIC))
                .findFirst().orElse(null);
    }

    private static boolean onKeptConnection(TestNode node, TestNode other) {
        RelayPeer peer = relayPeer(node, other.host.peerId());
        return peer != null && peer.relayStream() && peer.connection().isOpen()
                && node.host.connection(other.host.peerId()).map(c -> c == peer.connection()).orElse(false);
    }
}
