package io.wakurelay.services;

import com.google.protobuf.ByteString;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.discovery.peers.PeerRecords;
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

/** The client: what it connects to and keeps of an answer, and what it does with answers no honest server sends. */
class PeerExchangeClientTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final int CLUSTER = 0;

    @RegisterExtension
    final Closer closer = new Closer();

    private PxPeer peer(int index) {
        return closer.keep(new PxPeer(index));
    }

    private PeerExchangeClient client(PxPeer client, PeerRecords records) {
        return closer.keep(PeerExchangeClient.start(PeerExchangeClientConfig.builder().numPeers(10)
                .timeout(Duration.ofSeconds(5)).build(), client.host, records, CLUSTER, client.registry));
    }

    private double records(PxPeer peer, String outcome) {
        return peer.registry.get("waku.px.records").tag("outcome", outcome).counter().count();
    }

    @Test
    void aClientConnectsToThePeersOurServerNamesAndKeepsTheirRecords() {
        PxPeer server = peer(1);
        PxPeer third = peer(2);
        PxPeer asking = peer(3);
        PeerRecords served = new PeerRecords(10);
        server.connectTo(third);
        served.offer(third.record(CLUSTER));
        closer.keep(PeerExchangeService.start(PeerExchangeConfig.DEFAULTS, server.host, served, CLUSTER, server.registry));
        PeerRecords kept = new PeerRecords(10);

        PeerExchangeClient.Round round = client(asking, kept).discover(server.address()).block(WAIT);

        assertThat(round.received()).isEqualTo(1);
        assertThat(round.connected()).containsExactly(third.record(CLUSTER));
        assertThat(asking.host.connection(third.host.peerId())).isPresent();
        assertThat(kept.get(third.host.peerId())).contains(third.record(CLUSTER));
        assertThat(records(asking, "connected")).isEqualTo(1);
        assertThat(asking.registry.get("waku.px.peers.received.unknown").counter().count()).isEqualTo(1);
    }

    @Test
    void recordsThatDoNotDecodeNameAnotherClusterOrThisNodeOrCannotBeReachedAreDroppedAndCounted() {
        PxPeer server = peer(1);
        PxPeer asking = peer(2);
        PxPeer otherCluster = peer(3);
        PxPeer unreachable = peer(4);
        Enr unreachableRecord = unreachable.record(CLUSTER);
        unreachable.close(); // its address now refuses connections
        byte[] damaged = otherCluster.record(CLUSTER).encoded();
        damaged[damaged.length - 1] ^= 1;
        answerWith(server, List.of(new byte[]{1, 2, 3}, damaged, otherCluster.record(5).encoded(),
                asking.record(CLUSTER).encoded(), unreachableRecord.encoded()));
        PeerRecords kept = new PeerRecords(10);

        PeerExchangeClient.Round round = client(asking, kept).discover(server.address()).block(WAIT);

        assertThat(round.received()).isEqualTo(5);
        assertThat(round.connected()).isEmpty();
        assertThat(kept.size()).isZero();
        assertThat(records(asking, "invalid")).isEqualTo(2);
        assertThat(records(asking, "other_cluster")).isEqualTo(1);
        assertThat(records(asking, "own")).isEqualTo(1);
        assertThat(records(asking, "dial_failed")).isEqualTo(1);
        assertThat(asking.host.connection(otherCluster.host.peerId())).isEmpty();
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
        PeerExchangeClient client = closer.keep(PeerExchangeClient.start(PeerExchangeClientConfig.builder().numPeers(3).build(),
                asking.host, new PeerRecords(10), CLUSTER, asking.registry));

        assertThat(client.request(server.address(), 3).block(WAIT)).hasSize(3);
    }

    @Test
    void anAnswerWithoutAResponseOrOverTheLimitFailsAsABadResponse() {
        PxPeer server = peer(1);
        PxPeer asking = peer(2);
        answerWithBytes(server, RawExchange.frame(PeerExchangeRpc.getDefaultInstance()));
        PeerExchangeClient client = client(asking, new PeerRecords(10));
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
                .timeout(Duration.ofMillis(500)).build(), asking.host, new PeerRecords(10), CLUSTER, asking.registry));
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
