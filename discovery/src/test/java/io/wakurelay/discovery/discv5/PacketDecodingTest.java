package io.wakurelay.discovery.discv5;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** What a peer can send that is not a packet: every case an {@link Discv5PacketException}, nothing else. */
class PacketDecodingTest {

    private static final byte[] LOCAL_ID = NodeIds.of(Discv5Crypto.publicKey(
            HexFormat.of().parseHex("66fb62bfbd66b9177a138c1e5cddbe4f7c30c343e94e68df8769459cb1cde628")));

    @Test
    void refusesPacketsOutsideTheSizeBounds() {
        assertThatThrownBy(() -> Packet.decode(new byte[62], LOCAL_ID)).isInstanceOf(Discv5PacketException.class);
        assertThatThrownBy(() -> Packet.decode(new byte[1281], LOCAL_ID)).isInstanceOf(Discv5PacketException.class);
    }

    @Test
    void refusesAPacketMaskedForAnotherNode() {
        byte[] other = new byte[32];
        other[0] = 1;
        byte[] datagram = ordinary(new Message.Ping(new byte[] {1}, 1)).encode(other);
        assertThatThrownBy(() -> Packet.decode(datagram, LOCAL_ID)).isInstanceOf(Discv5PacketException.class)
                .hasMessageContaining("protocol id");
    }

    @Test
    void refusesAnAuthdataSizeThatDoesNotFitTheFlag() {
        byte[] authdata = new byte[33];
        byte[] datagram = new Packet(new byte[16], Packet.FLAG_ORDINARY, new byte[12], authdata, new byte[20])
                .encode(LOCAL_ID);
        assertThatThrownBy(() -> Packet.decode(datagram, LOCAL_ID)).hasMessageContaining("authdata of 33");
    }

    @Test
    void messagesRoundTrip() {
        List<Message> messages = List.of(new Message.Ping(new byte[] {1, 2}, 7),
                new Message.Pong(new byte[] {3}, 9, new byte[] {127, 0, 0, 1}, 9000),
                new Message.FindNode(new byte[] {4}, List.of(256, 255, 0)),
                new Message.Nodes(new byte[] {5}, 2, List.of()),
                new Message.TalkReq(new byte[] {6}, "x".getBytes(), new byte[] {9}),
                new Message.TalkResp(new byte[] {7}, new byte[0]));
        for (Message message : messages) {
            assertThat(Message.decode(message.encode()).encode()).isEqualTo(message.encode());
        }
    }

    @Test
    void refusesMalformedMessages() {
        assertThatThrownBy(() -> Message.decode(new byte[] {1})).isInstanceOf(Discv5PacketException.class);
        assertThatThrownBy(() -> Message.decode(new byte[] {9, (byte) 0xc1, 1}))
                .hasMessageContaining("message type");
        assertThatThrownBy(() -> Message.decode(new Message.FindNode(new byte[] {1}, List.of(257)).encode()))
                .isInstanceOf(Discv5PacketException.class);
        assertThatThrownBy(() -> Message.decode(new Message.Ping(new byte[9], 1).encode()))
                .hasMessageContaining("request id");
    }

    @Test
    void randomAndDamagedDatagramsRaiseOnlyPacketExceptions() {
        Random random = new Random(29);
        byte[] valid = ordinary(new Message.FindNode(new byte[] {1}, List.of(256))).encode(LOCAL_ID);
        for (int i = 0; i < 20_000; i++) {
            byte[] datagram;
            if (i % 2 == 0) {
                datagram = new byte[random.nextInt(1400)];
                random.nextBytes(datagram);
            } else {
                datagram = valid.clone();
                datagram[16 + random.nextInt(datagram.length - 16)] ^= (byte) (1 + random.nextInt(255));
            }
            try {
                Packet packet = Packet.decode(datagram, LOCAL_ID);
                if (packet.flag() == Packet.FLAG_HANDSHAKE) {
                    HandshakeAuthdata.decode(packet.authdata());
                }
            } catch (Discv5PacketException expected) {
                // the only outcome allowed for garbage
            }
            byte[] plaintext = new byte[1 + random.nextInt(100)];
            random.nextBytes(plaintext);
            plaintext[0] = (byte) (1 + random.nextInt(6));
            try {
                Message.decode(plaintext);
            } catch (Discv5PacketException expected) {
                // idem
            }
        }
    }

    private static Packet ordinary(Message message) {
        byte[] source = new byte[32];
        Packet header = new Packet(new byte[16], Packet.FLAG_ORDINARY, new byte[12], source, new byte[0]);
        return new Packet(new byte[16], Packet.FLAG_ORDINARY, new byte[12], source,
                Discv5Crypto.aesGcmEncrypt(new byte[16], new byte[12], message.encode(), header.messageAd()));
    }
}
