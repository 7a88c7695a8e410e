package io.wakurelay.services.store;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.wakurelay.archive.StoreQuery;
import io.wakurelay.p2p.Host;
import io.wakurelay.p2p.connection.Stream;
import io.wakurelay.p2p.connection.StreamHandler;
import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.p2p.wire.Uvarint;
import io.wakurelay.services.RawExchange;
import io.wakurelay.services.ServiceNode;
import io.wakurelay.services.proto.StoreQueryResponse;
import io.wakurelay.testkit.Eventually;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** The client's verdicts on peers that do not answer as a store should. */
class StoreClientTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final StoreQuery QUERY = StoreQuery.builder().pubsubTopic(ServiceNode.TOPIC).build();
    private final List<Host> hosts = new ArrayList<>();
    private final Host client = host(30);
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    private Host host(int index) {
        Host h = RawExchange.clientHost(index);
        hosts.add(h);
        return h;
    }

    @AfterEach
    void close() {
        hosts.forEach(Host::close);
    }

    private StoreClient client(StoreClientConfig config) {
        return StoreClient.start(config, client, registry);
    }

    private static RemoteStoreException failure(StoreClient c, Multiaddr peer) {
        return catchThrowableOfType(RemoteStoreException.class, () -> c.query(peer, QUERY).block(WAIT));
    }

    @Test
    void aPeerThatCannotBeReachedIsAPeerDialFailure() throws IOException {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        Multiaddr nobody = Multiaddr.of(new InetSocketAddress("127.0.0.1", closedPort))
                .withPeerId(PeerId.fromPublicKey(PrivateKey.generateEd25519().publicKey()));

        RemoteStoreException e = failure(client(StoreClientConfig.DEFAULTS), nobody);

        assertThat(e.statusCode()).isEqualTo(504);
        assertThat(e.getMessage()).as("nwaku's words first")
                .startsWith("PEER_DIAL_FAILURE: " + nobody + " (cannot reach it: ");
        assertThat(registry.get("waku.store.client.queries").tag("outcome", "peer_dial_failure").counter().count()).isEqualTo(1);
    }

    @Test
    void aPeerThatDoesNotAnswerInTimeIsAPeerDialFailureAndItsStreamIsReset() {
        Host silent = host(31);
        AtomicReference<Throwable> serverSawEnd = new AtomicReference<>();
        silent.handle(StoreServiceConfig.PROTOCOL_ID, s -> new StreamHandler() {
            @Override
            public void onData(Stream stream, ByteBuf data) {
                data.release();
            }

            @Override
            public void onClosed(Stream stream, Throwable cause) {
                serverSawEnd.set(cause == null ? new AssertionError("closed cleanly") : cause);
            }
        });
        StoreClient c = client(StoreClientConfig.builder().timeout(Duration.ofMillis(500)).build());

        RemoteStoreException e = failure(c, silent.listenAddresses().get(0));

        assertThat(e.statusCode()).isEqualTo(504);
        assertThat(e.getMessage()).contains("no store response").contains("within 500 ms");
        Eventually.until(() -> serverSawEnd.get() != null, () -> "the silent server's stream is still open");
        assertThat(serverSawEnd.get()).hasMessageContaining("reset");
    }

    @Test
    void aResponseAboveTheLimitIsABadResponseFoundFromItsLengthPrefix() {
        Host huge = host(32);
        huge.handle(StoreServiceConfig.PROTOCOL_ID, s -> new StreamHandler() {
            @Override
            public void onData(Stream stream, ByteBuf data) {
                data.release();
                ByteBuf prefix = stream.alloc().buffer(16);
                Uvarint.write(prefix, 100L << 20); // announces 100 MiB, sends none of it
                stream.write(prefix);
            }
        });

        RemoteStoreException e = failure(client(StoreClientConfig.builder().maxResponseBytes(StoreLimits.MIN_PAGE_BYTES)
                .build()), huge.listenAddresses().get(0));

        assertThat(e.statusCode()).isEqualTo(300);
        assertThat(e.getMessage()).contains("104857600 bytes, more than the limit of 262144");
    }

    @Test
    void aPeerThatClosesWithoutAnswerOrAnswersGarbageIsABadResponse() {
        Host mute = host(33);
        mute.handle(StoreServiceConfig.PROTOCOL_ID, s -> new StreamHandler() {
            @Override
            public void onData(Stream stream, ByteBuf data) {
                data.release();
                stream.closeWrite();
            }
        });
        Host garbage = host(34);
        garbage.handle(StoreServiceConfig.PROTOCOL_ID, s -> new StreamHandler() {
            @Override
            public void onData(Stream stream, ByteBuf data) {
                data.release();
                ByteBuf out = stream.alloc().buffer();
                out.writeBytes(RawExchange.frame(new byte[]{(byte) 0xFF, (byte) 0xFF, (byte) 0xFF}));
                stream.write(out);
                stream.closeWrite();
            }
        });
        StoreClient c = client(StoreClientConfig.DEFAULTS);

        RemoteStoreException closed = failure(c, mute.listenAddresses().get(0));
        assertThat(closed.statusCode()).isEqualTo(300);
        assertThat(closed.getMessage()).isEqualTo("the peer closed the stream without a response");

        RemoteStoreException malformed = failure(c, garbage.listenAddresses().get(0));
        assertThat(malformed.statusCode()).isEqualTo(300);
        assertThat(malformed.getMessage()).startsWith("the peer's response is not a StoreQueryResponse");
    }

    @Test
    void anErrorStatusOfThePeerIsReportedWithItsCodeAndDescription() {
        Host busy = host(35);
        busy.handle(StoreServiceConfig.PROTOCOL_ID, s -> new StreamHandler() {
            @Override
            public void onData(Stream stream, ByteBuf data) {
                data.release();
                ByteBuf out = stream.alloc().buffer();
                out.writeBytes(RawExchange.frame(StoreQueryResponse.newBuilder().setRequestId("r").setStatusCode(503)
                        .setStatusDesc("SERVICE_UNAVAILABLE").build()));
                stream.write(out);
                stream.closeWrite();
            }
        });

        RemoteStoreException e = failure(client(StoreClientConfig.DEFAULTS), busy.listenAddresses().get(0));

        assertThat(e.statusCode()).isEqualTo(503);
        assertThat(e.getMessage()).isEqualTo("SERVICE_UNAVAILABLE");
        assertThat(registry.get("waku.store.client.queries").tag("outcome", "error_status").counter().count()).isEqualTo(1);
    }

    @Test
    void atMostSixteenRemotePagesAreOpenAtOnceAndTheNextIsA429UntilOneIsClosed(@TempDir Path dir) {
        try (ServiceNode store = new ServiceNode(0, dir, ServiceNode.Options.none().withStore(StoreServiceConfig.DEFAULTS))) {
            StoreClient c = client(StoreClientConfig.DEFAULTS);
            Multiaddr peer = store.host.listenAddresses().get(0);
            List<OpenQuery> open = new ArrayList<>();
            for (int i = 0; i < StoreClient.MAX_OPEN_QUERIES; i++) {
                open.add(c.open(peer, QUERY, null).block(WAIT)); // written out slowly: held until closed
            }
            assertThat(registry.get("waku.store.client.queries.open").gauge().value()).isEqualTo(16);

            RemoteStoreException refused = catchThrowableOfType(RemoteStoreException.class,
                    () -> c.open(peer, QUERY, null).block(WAIT));
            assertThat(refused.statusCode()).isEqualTo(429);
            assertThat(refused.getMessage()).contains("16 queries already");
            assertThat(registry.get("waku.store.client.queries.refused").functionCounter().count()).isEqualTo(1);

            open.remove(0).close();
            open.get(0).close(); // closing twice frees one slot, not two
            open.get(0).close();
            open.add(c.open(peer, QUERY, null).block(WAIT));
            open.forEach(OpenQuery::close);
            assertThat(registry.get("waku.store.client.queries.open").gauge().value()).isZero();
        }
    }
}
