package io.wakurelay.services.peerexchange;

import io.wakurelay.services.RateLimit;
import io.wakurelay.services.RawExchange;

import io.micrometer.core.instrument.MeterRegistry;
import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.services.proto.PeerExchangeQuery;
import io.wakurelay.services.proto.PeerExchangeResponse;
import io.wakurelay.services.proto.PeerExchangeRpc;
import io.wakurelay.testkit.Closer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The server against our own client and raw requests: what it serves, its caps, its refusals. Which records a node
 * serves is discovery's (its ServedRecordsTest); here the source is the test's.
 */
class PeerExchangeServiceTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final PeerExchangeService.RecordSource NONE = (requester, max) -> List.of();

    @RegisterExtension
    final Closer closer = new Closer();

    private PxPeer peer(int index) {
        return closer.keep(new PxPeer(index));
    }

    private PeerExchangeService serve(PxPeer server, PeerExchangeService.RecordSource records,
            PeerExchangeConfig config) {
        return closer.keep(PeerExchangeService.start(config, server.host, records, server.registry));
    }

    private PeerExchangeClient client(PxPeer client) {
        return closer.keep(PeerExchangeClient.start(PeerExchangeClientConfig.DEFAULTS, client.host, client.registry));
    }

    /** A source that gives {@code max} records, one byte each. */
    private static final PeerExchangeService.RecordSource AS_MANY_AS_ASKED = (requester, max) -> {
        List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < max; i++) {
            out.add(new byte[] {(byte) i});
        }
        return out;
    };

    @Test
    void aPeerGetsWhatTheSourceGivesItsPeerIdForTheNumberItAskedFor() {
        PxPeer server = peer(1);
        PxPeer requester = peer(2);
        List<PeerId> asked = new CopyOnWriteArrayList<>();
        List<Integer> counts = new CopyOnWriteArrayList<>();
        byte[] record = {1, 2, 3};
        serve(server, (peer, max) -> {
            asked.add(peer);
            counts.add(max);
            return List.of(record);
        }, PeerExchangeConfig.DEFAULTS);

        List<byte[]> got = client(requester).request(server.address(), 50).block(WAIT);

        assertThat(got).containsExactly(record);
        assertThat(asked).containsExactly(requester.host.peerId());
        assertThat(counts).containsExactly(50);
        assertThat(server.registry.get("waku.px.peers.sent").counter().count()).isEqualTo(1);
    }

    @Test
    void anAnswerCarriesAtMostTheConfiguredNumberOfRecordsWhateverIsAskedOrGiven() {
        PxPeer server = peer(1);
        PxPeer requester = peer(2);
        serve(server, AS_MANY_AS_ASKED, PeerExchangeConfig.builder().maxPeersPerResponse(2).build());
        PeerExchangeClient client = client(requester);

        assertThat(client.request(server.address(), 60).block(WAIT)).hasSize(2);
        assertThat(client.request(server.address(), 1).block(WAIT)).hasSize(1);
        assertThat(client.request(server.address(), 0).block(WAIT)).isEmpty();
        // num_peers is a uint64: 2^64 - 1 arrives as -1 in a Java long
        PeerExchangeRpc huge = PeerExchangeRpc.newBuilder().setQuery(PeerExchangeQuery.newBuilder().setNumPeers(-1L)).build();
        RawExchange.Result raw = RawExchange.run(closer.keep(RawExchange.clientHost(9)), server.address(),
                PeerExchangeConfig.PROTOCOL_ID, RawExchange.frame(huge), true, WAIT);
        assertThat(response(raw).getPeerInfosCount()).isEqualTo(2);
    }

    @Test
    void aSourceThatGivesMoreThanAskedIsCutToTheCount() {
        PxPeer server = peer(1);
        PxPeer requester = peer(2);
        serve(server, (peer, max) -> AS_MANY_AS_ASKED.recordsFor(peer, max + 5), PeerExchangeConfig.DEFAULTS);

        assertThat(client(requester).request(server.address(), 3).block(WAIT)).hasSize(3);
    }

    @Test
    void aPeerPastItsRateIsAnswered429() {
        PxPeer server = peer(1);
        PxPeer requester = peer(2);
        serve(server, NONE, PeerExchangeConfig.builder().rateLimit(RateLimit.of(2, Duration.ofMinutes(1))).build());
        PeerExchangeClient client = client(requester);

        client.request(server.address(), 5).block(WAIT);
        client.request(server.address(), 5).block(WAIT);
        assertThatThrownBy(() -> client.request(server.address(), 5).block(WAIT))
                .isInstanceOfSatisfying(PeerExchangeException.class, e -> {
                    assertThat(e.kind()).isEqualTo(PeerExchangeException.Kind.ERROR_STATUS);
                    assertThat(e.statusCode()).isEqualTo(429);
                });
        MeterRegistry r = server.registry;
        assertThat(r.get("waku.px.errors").tag("type", "too_many_requests").counter().count()).isEqualTo(1);
        assertThat(requester.registry.get("waku.px.client.errors").tag("type", "error_status").counter().count()).isEqualTo(1);
    }

    @Test
    void malformedTooLargeOrQuerylessRequestsAreAnswered400() {
        PxPeer server = peer(1);
        serve(server, NONE, PeerExchangeConfig.DEFAULTS);
        var client = closer.keep(RawExchange.clientHost(2));

        RawExchange.Result garbage = RawExchange.run(client, server.address(), PeerExchangeConfig.PROTOCOL_ID,
                RawExchange.frame(new byte[]{(byte) 0xff, 0x01, 0x02}), true, WAIT);
        RawExchange.Result tooLarge = RawExchange.run(client, server.address(), PeerExchangeConfig.PROTOCOL_ID,
                RawExchange.frame(new byte[2048]), true, WAIT);
        RawExchange.Result noQuery = RawExchange.run(client, server.address(), PeerExchangeConfig.PROTOCOL_ID,
                RawExchange.frame(PeerExchangeRpc.getDefaultInstance()), true, WAIT);

        for (RawExchange.Result result : List.of(garbage, tooLarge, noQuery)) {
            assertThat(result.remoteClosed()).isTrue();
            PeerExchangeResponse response = response(result);
            assertThat(response.getStatusCode()).isEqualTo(400);
            assertThat(response.getStatusDesc()).isNotEmpty();
        }
        assertThat(server.registry.get("waku.px.errors").tag("type", "bad_request").counter().count()).isEqualTo(3);
    }

    @Test
    void randomRequestsGetA200OrA400AndNothingElse() {
        PxPeer server = peer(1);
        serve(server, (peer, max) -> List.of(new byte[] {7}),
                PeerExchangeConfig.builder().rateLimit(RateLimit.UNLIMITED).build());
        var client = closer.keep(RawExchange.clientHost(2));
        java.util.SplittableRandom random = new java.util.SplittableRandom(29);
        int ok = 0;
        for (int i = 0; i < 200; i++) {
            byte[] body = new byte[random.nextInt(0, 40)];
            random.nextBytes(body);
            if (i % 4 == 0 && body.length > 2) { // a query field with random content, to get past the first byte
                body[0] = 0x0a;
                body[1] = (byte) (body.length - 2);
            }
            PeerExchangeResponse response = response(RawExchange.run(client, server.address(),
                    PeerExchangeConfig.PROTOCOL_ID, RawExchange.frame(body), true, WAIT));
            assertThat(response.getStatusCode()).isIn(200, 400);
            if (response.getStatusCode() == 200) {
                ok++;
                assertThat(response.getPeerInfosCount()).isLessThanOrEqualTo(1);
            }
        }
        assertThat(ok).as("some random requests are valid queries").isPositive();
    }

    @Test
    void aStoppedServiceNoLongerServesTheProtocol() {
        PxPeer server = peer(1);
        PxPeer requester = peer(2);
        PeerExchangeService service = serve(server, NONE, PeerExchangeConfig.DEFAULTS);
        assertThat(server.host.protocols()).contains(PeerExchangeConfig.PROTOCOL_ID);
        service.close();
        assertThat(server.host.protocols()).doesNotContain(PeerExchangeConfig.PROTOCOL_ID);
        assertThat(server.registry.find("waku.px.peers.sent").meters()).as("meters removed at shutdown").isEmpty();
        assertThatThrownBy(() -> client(requester).request(server.address(), 5).block(WAIT))
                .isInstanceOfSatisfying(PeerExchangeException.class,
                        e -> assertThat(e.kind()).isEqualTo(PeerExchangeException.Kind.DIAL_FAILURE));
    }

    private static PeerExchangeResponse response(RawExchange.Result result) {
        try {
            PeerExchangeRpc rpc = PeerExchangeRpc.parseFrom(result.message());
            assertThat(rpc.hasResponse()).isTrue();
            return rpc.getResponse();
        } catch (com.google.protobuf.InvalidProtocolBufferException e) {
            throw new AssertionError(e);
        }
    }
}
