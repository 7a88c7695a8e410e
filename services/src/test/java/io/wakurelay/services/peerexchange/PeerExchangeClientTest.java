package io.wakurelay.services.peerexchange;

import io.wakurelay.services.RawExchange;

import com.google.protobuf.ByteString;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.wakurelay.p2p.connection.Stream;
import io.wakurelay.p2p.connection.StreamHandler;
import io.wakurelay.services.proto.PeerExchangeResponse;
import io.wakurelay.services.proto.PeerExchangeRpc;
import io.wakurelay.services.proto.PeerInfo;
import io.wakurelay.testkit.Closer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The client on the wire: what it takes of an answer, and what it does with answers no honest server sends (what the
 * records are worth is discovery's: its PeerExchangeDiscoveryTest).
 */
class PeerExchangeClientTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    @RegisterExtension
    final Closer closer = new Closer();

    private PxPeer peer(int index) {
        return closer.keep(new PxPeer(index));
    }

    private PeerExchangeClient client(PxPeer client) {
        return closer.keep(PeerExchangeClient.start(PeerExchangeClientConfig.builder()
                .timeout(Duration.ofSeconds(5)).build(), client.host, client.registry));
    }

    @Test
    void theClientGetsTheRecordsOurServerAnswersAsTheyWereSent() {
        PxPeer server = peer(1);
        PxPeer asking = peer(2);
        List<byte[]> served = List.of(new byte[] {1, 2, 3}, new byte[] {4});
        closer.keep(PeerExchangeService.start(PeerExchangeConfig.DEFAULTS, server.host, (requester, max) -> served,
                server.registry));

        assertThat(client(asking).request(server.address(), 5).block(WAIT)).containsExactlyElementsOf(served);
    }

    @Test
    void ofAnAnswerWithMoreRecordsThanAskedOnlyTheFirstAreUsed() {
        PxPeer server = peer(1);
        PxPeer asking = peer(2);
        List<byte[]> many = new java.util.ArrayList<>();
        for (int i = 0; i < 8; i++) {
            many.add(new byte[]{(byte) i});
        }
        answerWith(server, many);
        assertThat(client(asking).request(server.address(), 3).block(WAIT)).hasSize(3);
    }

    @Test
    void anAnswerWithoutAResponseOrOverTheLimitFailsAsABadResponse() {
        PxPeer server = peer(1);
        PxPeer asking = peer(2);
        answerWithBytes(server, RawExchange.frame(PeerExchangeRpc.getDefaultInstance()));
        PeerExchangeClient client = client(asking);
        assertThatThrownBy(() -> client.request(server.address(), 5).block(WAIT))
                .isInstanceOfSatisfying(PeerExchangeException.class,
                        e -> assertThat(e.kind()).isEqualTo(PeerExchangeException.Kind.BAD_RESPONSE));

        answerWithBytes(server, RawExchange.frame(new byte[100_000]));
        assertThatThrownBy(() -> client.request(server.address(), 5).block(WAIT))
                .isInstanceOfSatisfying(PeerExchangeException.class,
                        e -> assertThat(e.getMessage()).contains("more than the limit"));
        assertThat(asking.registry.get("waku.px.client.errors").tag("type", "bad_response").counter().count()).isEqualTo(2);
    }

    @Test
    void aServerThatNeverAnswersTimesOut() {
        PxPeer server = peer(1);
        PxPeer asking = peer(2);
        server.host.handle(PeerExchangeConfig.PROTOCOL_ID, stream -> new StreamHandler() {
            @Override
            public void onData(Stream s, ByteBuf data) {
                data.release(); // and no answer
            }
        });
        PeerExchangeClient client = closer.keep(PeerExchangeClient.start(PeerExchangeClientConfig.builder()
                .timeout(Duration.ofMillis(500)).build(), asking.host, asking.registry));
        assertThatThrownBy(() -> client.request(server.address(), 5).block(WAIT))
                .isInstanceOfSatisfying(PeerExchangeException.class,
                        e -> assertThat(e.kind()).isEqualTo(PeerExchangeException.Kind.TIMEOUT));
    }

    /** A server that answers every request with these records, whatever they are. */
    private static void answerWith(PxPeer server, List<byte[]> records) {
        PeerExchangeResponse.Builder response = PeerExchangeResponse.newBuilder().setStatusCode(200);
        records.forEach(r -> response.addPeerInfos(PeerInfo.newBuilder().setEnr(ByteString.copyFrom(r))));
        answerWithBytes(server, RawExchange.frame(PeerExchangeRpc.newBuilder().setResponse(response).build()));
    }

    private static void answerWithBytes(PxPeer server, byte[] answer) {
        server.host.handle(PeerExchangeConfig.PROTOCOL_ID, stream -> new StreamHandler() {
            private boolean answered;

            @Override
            public void onData(Stream s, ByteBuf data) {
                data.release();
                if (!answered) {
                    answered = true;
                    s.write(Unpooled.wrappedBuffer(answer));
                    s.closeWrite();
                }
            }
        });
    }
}
