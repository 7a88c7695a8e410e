package io.wakurelay.relay;

import com.google.protobuf.ByteString;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.relay.proto.Message;
import io.wakurelay.relay.proto.RPC;
import io.wakurelay.testkit.Closer;
import io.wakurelay.testkit.Eventually;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Copies of a message the node already relayed, sent by peers on the wire: a copy byte for byte the same takes the
 * cached message's id without a SHA-256; a copy of the same data encoded otherwise is hashed, and is still the same
 * message (a duplicate, delivered once).
 */
class DuplicateCopiesTest {
    @RegisterExtension
    final Closer closer = new Closer();

    private static RPC subscribe() {
        return RPC.newBuilder().addSubscriptions(RPC.SubOpts.newBuilder().setSubscribe(true).setTopicid(Messages.TOPIC)).build();
    }

    private static RPC publish(ByteString data) {
        return RPC.newBuilder().addPublish(Message.newBuilder().setTopic(Messages.TOPIC).setData(data)).build();
    }

    private static double counter(TestNode node, String name) {
        var c = node.registry.find(name).counter();
        return c == null ? 0 : c.count();
    }

    /** A node and two raw peers subscribed to the topic, the first of which has sent {@code data}. */
    private TestNode nodeThatRelayed(ByteString data, RawRelayPeer first, RawRelayPeer second) {
        TestNode node = closer.keep(new TestNode(0, TestNode.fastConfig(), PrivateKey.generateEd25519()));
        for (RawRelayPeer p : List.of(first, second)) {
            p.connect(node.address());
            p.send(subscribe());
        }
        Eventually.until(() -> node.relay.peers().stream().filter(p -> p.topics().contains(Messages.TOPIC)).count() == 2);
        first.send(publish(data));
        Eventually.until(() -> node.received.size() == 1);
        return node;
    }

    @Test
    void aCopyWithTheSameBytesTakesTheCachedMessagesIdWithoutHashing() {
        ByteString data = Messages.message(1, 20_000).toByteString();
        RawRelayPeer first = closer.keep(new RawRelayPeer(1));
        RawRelayPeer second = closer.keep(new RawRelayPeer(2));
        TestNode node = nodeThatRelayed(data, first, second);
        long idsBefore = node.counters.messageIds();

        second.send(publish(data));

        Eventually.until(() -> counter(node, "libp2p.gossipsub.duplicate") == 1);
        assertThat(counter(node, "waku.relay.message.ids.by.bytes")).isEqualTo(1);
        assertThat(node.counters.messageIds() - idsBefore).as("SHA-256 message ids computed for the copy").isZero();
        assertThat(node.received.values()).singleElement().extracting(n -> n.get()).isEqualTo(1);
    }

    @Test
    void theSameDataEncodedOtherwiseIsHashedAndStillADuplicate() throws IOException {
        ByteString data = Messages.message(2, 20_000).toByteString();
        RawRelayPeer first = closer.keep(new RawRelayPeer(1));
        RawRelayPeer second = closer.keep(new RawRelayPeer(2));
        TestNode node = nodeThatRelayed(data, first, second);
        long idsBefore = node.counters.messageIds();

        // Message{topic, data}: the fields in the other order, so the Message's bytes differ and its data does not
        ByteArrayOutputStream reordered = new ByteArrayOutputStream();
        Message.newBuilder().setTopic(Messages.TOPIC).build().writeTo(reordered);
        Message.newBuilder().setData(data).build().writeTo(reordered);
        ByteString message = ByteString.copyFrom(reordered.toByteArray());
        second.sendRaw(lengthPrefixed(RPC.newBuilder().build().toByteString()
                .concat(ByteString.copyFrom(new byte[] {(2 << 3) | 2}))
                .concat(varint(message.size())).concat(message)));

        Eventually.until(() -> counter(node, "libp2p.gossipsub.duplicate") == 1);
        assertThat(counter(node, "waku.relay.message.ids.by.bytes")).isZero();
        assertThat(node.counters.messageIds() - idsBefore).as("the copy's data was hashed").isEqualTo(1);
        assertThat(node.received.values()).singleElement().extracting(n -> n.get()).isEqualTo(1);
    }

    private static byte[] lengthPrefixed(ByteString rpc) {
        return varint(rpc.size()).concat(rpc).toByteArray();
    }

    private static ByteString varint(int value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        while ((value & ~0x7F) != 0) {
            out.write((value & 0x7F) | 0x80);
            value >>>= 7;
        }
        out.write(value);
        return ByteString.copyFrom(out.toByteArray());
    }
}
