package io.wakurelay.relay;

import com.google.protobuf.ByteString;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.p2p.wire.Uvarint;
import io.wakurelay.relay.proto.Message;
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

    private static double counter(TestNode node, String name) {
        return node.counter(name, null, null);
    }

    /** A node and two raw peers subscribed to the topic, the first of which has sent {@code data}. */
    private TestNode nodeThatRelayed(ByteString data, RawRelayPeer first, RawRelayPeer second) {
        TestNode node = closer.keep(new TestNode(0, TestNode.fastConfig(), PrivateKey.generateEd25519()));
        for (RawRelayPeer p : List.of(first, second)) {
            p.connect(node.address());
            p.send(RawRelayPeer.subscribe());
        }
        Eventually.until(() -> node.relay.peers().stream().filter(p -> p.topics().contains(Messages.TOPIC)).count() == 2);
        first.send(RawRelayPeer.publish(data));
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

        second.send(RawRelayPeer.publish(data));

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
        byte[] message = reordered.toByteArray();
        ByteBuf frame = Unpooled.buffer(); // the length, then RPC{publish: the Message as written above}
        Uvarint.write(frame, 1 + Uvarint.size(message.length) + message.length);
        frame.writeByte((2 << 3) | 2);
        Uvarint.write(frame, message.length);
        byte[] rpc = ByteBufUtil.getBytes(frame.writeBytes(message));
        frame.release();
        second.sendRaw(rpc);

        Eventually.until(() -> counter(node, "libp2p.gossipsub.duplicate") == 1);
        assertThat(counter(node, "waku.relay.message.ids.by.bytes")).isZero();
        assertThat(node.counters.messageIds() - idsBefore).as("the copy's data was hashed").isEqualTo(1);
        assertThat(node.received.values()).singleElement().extracting(n -> n.get()).isEqualTo(1);
    }
}
