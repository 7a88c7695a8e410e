package io.wakurelay.p2p;

import io.wakurelay.p2p.connection.Connection;
import io.wakurelay.p2p.connection.P2pException;
import io.wakurelay.p2p.echo.EchoClient;
import io.wakurelay.p2p.echo.EchoProtocol;

import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.p2p.mux.MplexSession;
import io.wakurelay.p2p.mux.YamuxSession;
import io.wakurelay.p2p.noise.AeadSelection;
import io.wakurelay.testkit.Eventually;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HostTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private final TestHosts hosts = new TestHosts();

    @AfterEach
    void close() {
        hosts.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {YamuxSession.PROTOCOL_ID, MplexSession.PROTOCOL_ID})
    void twoHostsConnectOverEachMuxerAndEachProvesItsPeerId(String muxer) {
        Host a = hosts.start(b -> b.muxers(List.of(muxer)), PrivateKey.generateSecp256k1());
        Host b = hosts.start();

        Connection c = a.dial(TestHosts.address(b)).block(WAIT);

        assertThat(c.remotePeer()).isEqualTo(b.peerId());
        assertThat(c.muxer()).isEqualTo(muxer);
        assertThat(c.isOutbound()).isTrue();
        Eventually.until(() -> b.connection(a.peerId()).isPresent());
        Connection back = b.connection(a.peerId()).orElseThrow();
        assertThat(back.isOutbound()).isFalse();
        assertThat(back.remotePublicKey()).isEqualTo(a.identity().publicKey());
    }

    @Test
    void identifyTellsEachSideTheOthersProtocolsAgentAndAddresses() {
        Host a = hosts.start(b -> b.agentVersion("wakurelay/test-a"));
        Host b = hosts.start(x -> x.agentVersion("wakurelay/test-b"));
        AtomicReference<PeerRecord> seenByA = new AtomicReference<>();
        a.addListener(new ConnectionListener() {
            @Override
            public void onIdentified(Connection connection, PeerRecord peer) {
                seenByA.set(peer);
            }
        });

        a.dial(TestHosts.address(b)).block(WAIT);

        Eventually.until(() -> seenByA.get() != null && b.peer(a.peerId()).map(p -> !p.protocols().isEmpty()).orElse(false));
        assertThat(seenByA.get().agentVersion()).isEqualTo("wakurelay/test-b");
        assertThat(seenByA.get().protocols()).contains(EchoProtocol.ID, PingService.PROTOCOL, IdentifyService.PROTOCOL);
        assertThat(seenByA.get().listenAddresses()).containsExactly(TestHosts.address(b).withoutPeerId());
        assertThat(seenByA.get().observedAddress()).isNotNull();
        assertThat(b.peer(a.peerId()).orElseThrow().agentVersion()).isEqualTo("wakurelay/test-a");
    }

    @ParameterizedTest
    @ValueSource(strings = {YamuxSession.PROTOCOL_ID, MplexSession.PROTOCOL_ID})
    void anEchoStreamMovesTenMegabytesIntact(String muxer) {
        Host a = hosts.start(b -> b.muxers(List.of(muxer)));
        Host b = hosts.start();
        Connection c = a.dial(TestHosts.address(b)).block(WAIT);

        EchoClient.Result result = EchoClient.run(c, 10_000_000).block(Duration.ofSeconds(30));

        assertThat(result.bytes()).isEqualTo(10_000_000);
        assertThat(result.receivedSha256()).isEqualTo(result.sentSha256());
    }

    @Test
    void aHostsEventLoopThreadsCarryItsPrefixAndABadPrefixIsRefused() {
        Host a = hosts.start(b -> b.threadNamePrefix("host-under-test"));
        Host b = hosts.start(x -> x);
        a.dial(TestHosts.address(b)).block(WAIT);

        assertThat(Thread.getAllStackTraces().keySet()).map(Thread::getName)
                .anyMatch(n -> n.startsWith("host-under-test-")).anyMatch(n -> n.startsWith("wakurelay-p2p-"));
        assertThatThrownBy(() -> TestHosts.loopback().threadNamePrefix("no spaces").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("threadNamePrefix");
    }

    @Test
    void aHostOnConscryptsCipherAndOneOnTheJdksTalkBothWays() {
        Host conscrypt = hosts.start(b -> b.aead(AeadSelection.Choice.CONSCRYPT));
        Host jdk = hosts.start(b -> b.aead(AeadSelection.Choice.JDK));

        // one direction at a time: a second connection between the two while the first is open would be a duplicate,
        // and the host closes one of the two
        for (Host[] pair : new Host[][]{{conscrypt, jdk}, {jdk, conscrypt}}) {
            Host from = pair[0];
            Host to = pair[1];
            Connection c = from.dial(TestHosts.address(to)).block(WAIT);
            EchoClient.Result result = EchoClient.run(c, 1_000_000).block(Duration.ofSeconds(30));
            assertThat(result.receivedSha256()).isEqualTo(result.sentSha256());
            c.close();
            Eventually.until(() -> from.connection(to.peerId()).isEmpty() && to.connection(from.peerId()).isEmpty());
        }
        assertThat(TestHosts.gauge(hosts.registry(conscrypt), "libp2p.noise.aead", "provider", "conscrypt")).isEqualTo(1);
        assertThat(TestHosts.gauge(hosts.registry(jdk), "libp2p.noise.aead", "provider", "jdk")).isEqualTo(1);
        assertThat(TestHosts.gauge(hosts.registry(jdk), "libp2p.noise.aead", "provider", "conscrypt")).isZero();
    }

    @Test
    void aHostOnTheIpv4WildcardAnnouncesIpv4AddressesOnlyLoopbackLast() {
        Host a = hosts.start(b -> b.listenAddress(new InetSocketAddress("0.0.0.0", 0)));

        List<String> addresses = a.listenAddresses().stream().map(Multiaddr::toString).toList();

        assertThat(addresses).isNotEmpty().allSatisfy(m -> assertThat(m).startsWith("/ip4/").endsWith("/p2p/" + a.peerId()));
        assertThat(addresses).contains("/ip4/127.0.0.1/tcp/" + a.boundAddress().getPort() + "/p2p/" + a.peerId());
        assertThat(addresses.get(addresses.size() - 1)).as("loopback comes after what other hosts can dial").startsWith("/ip4/127.");
    }

    @Test
    void dialingAnAddressThatNamesAnotherPeerIdFailsTheHandshake() {
        Host a = hosts.start();
        Host b = hosts.start();
        PeerId someoneElse = PeerId.fromPublicKey(PrivateKey.generateEd25519().publicKey());
        Multiaddr wrong = TestHosts.address(b).withPeerId(someoneElse);

        assertThatThrownBy(() -> a.dial(wrong).block(WAIT)).isInstanceOf(HandshakeException.class)
                .satisfies(e -> assertThat(((HandshakeException) e).outcome()).isEqualTo("wrong_peer_id"));
        assertThat(a.connections()).isEmpty();
        assertThat(TestHosts.count(hosts.registry(a), "libp2p.handshakes", "outcome", "wrong_peer_id")).isEqualTo(1);
    }

    @Test
    void aHostRefusesToDialItself() {
        Host a = hosts.start();
        assertThatThrownBy(() -> a.dial(TestHosts.address(a)).block(WAIT)).isInstanceOf(P2pException.class)
                .hasMessageContaining("own peer id");
    }

    @Test
    void dialingAConnectedPeerReturnsTheExistingConnection() {
        Host a = hosts.start();
        Host b = hosts.start();
        Connection first = a.dial(TestHosts.address(b)).block(WAIT);
        Connection second = a.dial(TestHosts.address(b)).block(WAIT);

        assertThat(second).isSameAs(first);
    }

    @Test
    void aSecondConnectionOfTheSamePeerIsClosedAndTheLiveOneKept() throws InterruptedException {
        Host a = hosts.start(x -> x.duplicateWindow(Duration.ofMillis(1)));
        Host b = hosts.start(x -> x.duplicateWindow(Duration.ofMillis(1)));
        Connection first = a.dial(TestHosts.address(b)).block(WAIT);
        Thread.sleep(50);

        // without /p2p the dial cannot know it reaches a peer it is connected to: a real second connection
        Connection fromB = b.dial(TestHosts.address(a).withoutPeerId()).block(WAIT);

        assertThat(fromB.isOutbound()).isFalse();
        assertThat(first.isOpen()).isTrue();
        assertThat(a.connection(b.peerId())).containsSame(first);
        Eventually.until(() -> TestHosts.count(hosts.registry(a), "libp2p.connections.rejected", "reason", "duplicate")
                + TestHosts.count(hosts.registry(b), "libp2p.connections.rejected", "reason", "duplicate") == 2);
        assertThat(a.connections()).hasSize(1);
        assertThat(b.connections()).hasSize(1);
    }

    @Test
    void aStaticPeerIsDialledAgainAfterItRestarts() {
        PrivateKey keyOfB = PrivateKey.generateEd25519();
        Host b = hosts.start(x -> x, keyOfB);
        Multiaddr addressOfB = TestHosts.address(b);
        Host a = hosts.start(x -> x.staticPeers(List.of(addressOfB)));
        Eventually.until(() -> a.connection(b.peerId()).map(a::isStaticConnection).orElse(false));

        b.close();
        Eventually.until(() -> a.connection(b.peerId()).isEmpty());
        int port = addressOfB.toSocketAddress().getPort();
        Host restarted = hosts.start(x -> x.listenAddress(new java.net.InetSocketAddress("127.0.0.1", port)), keyOfB);

        Eventually.until(() -> a.connection(restarted.peerId()).isPresent());
    }

    @Test
    void shutdownClosesEveryConnectionAndThePeerSeesItGo() {
        Host a = hosts.start();
        Host b = hosts.start();
        a.dial(TestHosts.address(b)).block(WAIT);
        Eventually.until(() -> b.connection(a.peerId()).isPresent());

        a.shutdown(Duration.ofSeconds(2)).block(WAIT);

        Eventually.until(() -> b.connections().isEmpty());
        assertThatThrownBy(() -> a.dial(TestHosts.address(b)).block(WAIT)).isInstanceOf(P2pException.class);
    }

    @Test
    void listenAddressesEndInThePeerIdAndNeverNameTheWildcard() {
        Host a = hosts.start(x -> x.listenAddress(new java.net.InetSocketAddress("0.0.0.0", 0)));

        assertThat(a.listenAddresses()).isNotEmpty().allSatisfy(m -> {
            assertThat(m.peerId()).contains(a.peerId());
            assertThat(m.toString()).doesNotContain("/ip4/0.0.0.0");
        });
    }

    @Test
    void announcedAddressesReplaceTheBoundOne() {
        Multiaddr external = Multiaddr.parse("/dns4/node.example.org/tcp/30303");
        Host a = hosts.start(x -> x.announceAddresses(List.of(external)));

        assertThat(a.listenAddresses()).containsExactly(external.withPeerId(a.peerId()));
    }
}
