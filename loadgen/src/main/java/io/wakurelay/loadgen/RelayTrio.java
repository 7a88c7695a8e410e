package io.wakurelay.loadgen;

import io.wakurelay.node.WakuNode;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The set-up of nanomsg-style tests through a relay: the relay node under test and two client nodes, one
 * each side, all in this JVM on loopback. The relay never sends a message back to its sender, so traffic
 * from one client reaches only the other.
 */
final class RelayTrio implements AutoCloseable {
    final WakuNode relay;
    final WakuNode sender;
    final WakuNode receiver;

    RelayTrio(Path dir, String topic, boolean store) {
        relay = InProcessNodes.start(dir.resolve("relay"), store, topic, List.of());
        WakuNode s = null;
        WakuNode r = null;
        try {
            s = InProcessNodes.start(dir.resolve("sender"), false, topic, List.of(InProcessNodes.peerAddress(relay)));
            r = InProcessNodes.start(dir.resolve("receiver"), false, topic, List.of(InProcessNodes.peerAddress(relay)));
            for (WakuNode client : List.of(s, r)) {
                InProcessNodes.awaitPeer(client, relay, topic, Duration.ofSeconds(30));
                InProcessNodes.awaitPeer(relay, client, topic, Duration.ofSeconds(30));
            }
        } catch (RuntimeException e) {
            if (r != null) {
                r.close();
            }
            if (s != null) {
                s.close();
            }
            relay.close();
            throw e;
        }
        sender = s;
        receiver = r;
    }

    @Override
    public void close() {
        receiver.close();
        sender.close();
        relay.close();
    }
}
