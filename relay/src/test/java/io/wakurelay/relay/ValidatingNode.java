package io.wakurelay.relay;

import com.google.protobuf.ByteString;
import io.wakurelay.protocol.MessageHasher;
import io.wakurelay.protocol.PathCounters;
import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.relay.proto.RPC;
import io.wakurelay.relay.validation.ValidationConfig;
import io.wakurelay.testkit.Eventually;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * A relay node with a {@link FakeRlnValidator} and raw peers in its mesh, for the tests of the validation stage: the
 * peers send messages to it, and see what it forwards to them.
 */
final class ValidatingNode implements AutoCloseable {
    private static final MessageHasher HASHER = new MessageHasher(new PathCounters());
    final FakeRlnValidator validator = new FakeRlnValidator();
    final TestNode node;
    final List<RawRelayPeer> peers = new ArrayList<>();

    /** @param validation changes to {@link ValidationConfig#DEFAULTS} */
    ValidatingNode(int peerCount, UnaryOperator<ValidationConfig> validation) {
        RelayConfig config = TestNode.fastConfig().toBuilder()
                .validation(validation.apply(ValidationConfig.DEFAULTS)).build();
        node = new TestNode(0, config, validator);
        try {
            for (int i = 0; i < peerCount; i++) {
                RawRelayPeer peer = new RawRelayPeer(i + 1);
                peers.add(peer);
                peer.connect(node.address());
                peer.send(RawRelayPeer.subscribe());
            }
            Eventually.until(() -> node.meshSize(Messages.TOPIC) == peerCount, () -> "mesh " + node.relay.mesh());
        } catch (RuntimeException | Error e) {
            close();
            throw e;
        }
    }

    RawRelayPeer peer(int i) {
        return peers.get(i);
    }

    /** {@code peer} sends {@code message} to the node. */
    void send(int peer, WakuMessage message) {
        peers.get(peer).send(RawRelayPeer.publish(message.toByteString()));
    }

    /** Whether {@code peer} was sent {@code message} by the node. */
    boolean forwardedTo(int peer, WakuMessage message) {
        ByteString data = message.toByteString();
        return peers.get(peer).received.stream().flatMap(r -> r.getPublishList().stream())
                .anyMatch(m -> m.getData().equals(data));
    }

    /** Whether the node handed {@code message} to its local consumer. */
    boolean delivered(WakuMessage message) {
        return node.received.containsKey(HASHER.hash(Messages.TOPIC, message));
    }

    double score(int peer) {
        return node.relay.peers().stream().filter(p -> p.peerId().equals(peers.get(peer).host.peerId())).findFirst()
                .map(RelayPeer::score).orElse(Double.NaN);
    }

    double counter(String name, String tag, String value) {
        return node.counter(name, tag, value);
    }

    double gauge(String name) {
        var g = node.registry.find(name).gauge();
        return g == null ? Double.NaN : g.value();
    }

    @Override
    public void close() {
        node.close();
        peers.forEach(RawRelayPeer::close);
    }

    /** An RPC that publishes every one of {@code messages}. */
    static RPC publishAll(List<WakuMessage> messages) {
        RPC.Builder rpc = RPC.newBuilder();
        for (WakuMessage m : messages) {
            rpc.addPublish(io.wakurelay.relay.proto.Message.newBuilder().setTopic(Messages.TOPIC).setData(m.toByteString()));
        }
        return rpc.build();
    }
}
