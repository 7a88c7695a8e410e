package io.wakurelay.relay;

import io.netty.handler.ssl.JdkSslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.wakurelay.protocol.proto.Frame;
import io.wakurelay.testkit.TestCertificates;
import io.wakurelay.testkit.TestCertificates.NodeFiles;
import io.wakurelay.testkit.TestMessages;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;
import java.io.IOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.wakurelay.testkit.TestMessages.PUBSUB_TOPIC;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * TLS between peers, over real loopback sockets: nodes holding certificates of one authority talk as usual
 * (every message decoded once); a plaintext peer, a peer without a certificate and a peer whose certificate
 * another authority signed all fail the handshake, are counted as {@code rejected{reason="tls"}}, and never
 * reach the Hello handshake or the frame decoder.
 */
class TlsTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    @TempDir
    static Path dir;
    private static NodeFiles nodeA;
    private static NodeFiles nodeB;
    /** Signed by another authority, trusting ours: the server must refuse it. */
    private static NodeFiles intruder;
    /** Signed by ours, trusting only the other authority: it must refuse our servers. */
    private static NodeFiles distrustful;
    private final List<AutoCloseable> resources = new ArrayList<>();

    @BeforeAll
    static void certificates() {
        TestCertificates.Authority network = TestCertificates.authority("network-ca");
        TestCertificates.Authority other = TestCertificates.authority("other-ca");
        nodeA = network.issue(dir, "node-a");
        nodeB = network.issue(dir, "node-b");
        intruder = other.issueTrusting(dir, "intruder", network);
        distrustful = network.issueTrusting(dir, "distrustful", other);
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable resource : resources) {
            resource.close();
        }
    }

    private static TlsConfig tls(NodeFiles files, boolean requireClientAuth) {
        return new TlsConfig(files.certificateChain(), files.privateKey(), files.trustedCertificates(), requireClientAuth);
    }

    private TestRelay relay(RelayConfig config) {
        TestRelay relay = TestRelay.start(config);
        resources.add(0, relay);
        return relay;
    }

    private TestRelay tlsRelay(String nodeId, NodeFiles files) {
        return relay(TestRelay.config(nodeId).withTls(tls(files, true)));
    }

    @Test
    void twoRelaysOverTlsExchangeMessagesDecodedOnce() {
        TestRelay b = tlsRelay("tls-b", nodeB);
        TestRelay a = relay(TestRelay.config("tls-a").withTls(tls(nodeA, true)).withStaticPeers(List.of(b.address())));
        Eventually.until("a and b connected over TLS", () -> a.connectedTo(b) && b.connectedTo(a));

        PublishResult small = a.publish(TestMessages.message(1, 100, TestMessages.nowNanos()));
        // the largest message spans about ten TLS records: the frame decoder reassembles it from decrypted pieces
        PublishResult largest = a.publish(TestMessages.message(2, 150_000, TestMessages.nowNanos()));
        PublishResult back = b.publish(TestMessages.message(3, 1000, TestMessages.nowNanos()));

        Eventually.until("b accepted both", () -> b.timesAccepted(small.hash()) == 1 && b.timesAccepted(largest.hash()) == 1);
        Eventually.until("a accepted b's", () -> a.timesAccepted(back.hash()) == 1);
        assertThat(b.counters.decodes()).as("one decode per message received").isEqualTo(2);
        assertThat(b.counters.hashes()).isEqualTo(3);
        assertThat(b.counters.payloadCopies()).isZero();
        assertThat(a.counters.decodes()).isEqualTo(1);
        assertThat(b.counter("waku.relay.connections.rejected", "reason", "tls")).isZero();
        assertThat(a.counter("waku.relay.connections.rejected", "reason", "tls")).isZero();
    }

    @Test
    void aPlaintextPeerFailsTheHandshakeAndNeverReachesTheFrameDecoder() throws IOException {
        TestRelay relay = relay(TestRelay.config("tls-only").withTls(tls(nodeA, true)).withHandshakeTimeout(Duration.ofMillis(500)));

        try (RawPeer plaintext = RawPeer.connect(relay.address())) {
            plaintext.send(RawPeer.hello("plain", List.of(PUBSUB_TOPIC)));
            assertThat(plaintext.closedWithin(WAIT)).as("closed without a Hello").isTrue();
        }
        try (RawPeer silent = RawPeer.connect(relay.address())) {
            assertThat(silent.closedWithin(WAIT)).as("a peer that never starts a handshake is closed after the timeout").isTrue();
        }
        TestRelay plainRelay = relay(TestRelay.config("plain-relay").withStaticPeers(List.of(relay.address())));

        Eventually.until("three failed handshakes counted", () -> relay.counter("waku.relay.connections.rejected", "reason", "tls") >= 3);
        assertThat(relay.counter("waku.relay.frames.received", "kind", "hello")).as("no frame was decoded").isZero();
        assertThat(relay.registry.find("waku.relay.messages.invalid").counters()).as("nothing reached the frame decoder").isEmpty();
        assertThat(relay.counter("waku.relay.frames.sent", "kind", "hello")).as("no Hello was sent in plaintext").isZero();
        assertThat(relay.relay.peers()).isEmpty();
        assertThat(plainRelay.relay.peers()).isEmpty();
    }

    @Test
    void handshakesInProgressAreBoundedByMaxConnections() throws IOException {
        TestRelay relay = relay(TestRelay.config("bounded").withTls(tls(nodeA, true)).withMaxConnections(2));

        try (RawPeer first = RawPeer.connect(relay.address());
             RawPeer second = RawPeer.connect(relay.address());
             RawPeer third = RawPeer.connect(relay.address())) {
            // which of the three is refused depends on which event loop runs first: that one is refused
            Eventually.until("one of three silent connections refused at once",
                    () -> relay.counter("waku.relay.connections.rejected", "reason", "too_many_connections") == 1);
            for (RawPeer silent : List.of(first, second, third)) {
                assertThat(silent.closedWithin(WAIT)).isTrue();
            }
        }
        Eventually.until("the two silent ones counted", () -> relay.counter("waku.relay.connections.rejected", "reason", "tls") == 2);
        try (RawPeer afterwards = RawPeer.connect(relay.address(), tlsClient(nodeB, true))) {
            assertThat(afterwards.handshake("afterwards", List.of(PUBSUB_TOPIC)).getNodeId()).as("places are given back").isEqualTo("bounded");
        }
    }

    @Test
    void aPeerWithACertificateFromAnotherAuthorityIsRefused() throws Exception {
        TestRelay relay = tlsRelay("tls-server", nodeA);

        // a JDK client offers only certificates of the authorities the server names; this one insists on its own
        try (RawPeer stranger = RawPeer.connect(relay.address(), tlsClientInsistingOn(intruder))) {
            assertRefused(stranger);
        }
        TestRelay intruderRelay = relay(TestRelay.config("intruder").withTls(tls(intruder, true))
                .withStaticPeers(List.of(relay.address())));

        Eventually.until("both refusals counted", () -> relay.counter("waku.relay.connections.rejected", "reason", "tls") >= 2);
        assertThat(relay.relay.peers()).isEmpty();
        assertThat(intruderRelay.relay.peers()).isEmpty();
        assertThat(relay.counter("waku.relay.frames.received", "kind", "hello")).isZero();
    }

    @Test
    void aPeerWithoutACertificateIsRefusedUnlessClientAuthenticationIsOff() throws IOException {
        TestRelay mutual = tlsRelay("mutual", nodeA);
        TestRelay serverOnly = relay(TestRelay.config("server-only").withTls(tls(nodeA, false)));

        try (RawPeer anonymous = RawPeer.connect(mutual.address(), tlsClient(nodeB, false))) {
            assertRefused(anonymous);
        }
        Eventually.until("the refusal counted", () -> mutual.counter("waku.relay.connections.rejected", "reason", "tls") == 1);

        try (RawPeer anonymous = RawPeer.connect(serverOnly.address(), tlsClient(nodeB, false))) {
            assertThat(anonymous.handshake("anonymous", List.of(PUBSUB_TOPIC)).getNodeId()).isEqualTo("server-only");
            Eventually.until("connected", () -> serverOnly.peerIds().contains("anonymous"));
        }
    }

    @Test
    void aRelayRefusesAServerWhoseCertificateItDoesNotTrust() {
        TestRelay server = tlsRelay("trusted-by-none", nodeA);
        TestRelay client = relay(TestRelay.config("distrustful").withTls(tls(distrustful, true))
                .withStaticPeers(List.of(server.address())));

        Eventually.until("the dialler refused the server's certificate",
                () -> client.counter("waku.relay.connections.rejected", "reason", "tls") >= 1);
        assertThat(client.relay.peers()).isEmpty();
        assertThat(server.relay.peers()).isEmpty();
    }

    /** The server ends the TLS session (with TLS 1.3 a refused client certificate is reported after the client's handshake). */
    private static void assertRefused(RawPeer peer) {
        Frame answer;
        try {
            answer = peer.read(WAIT);
        } catch (IOException e) {
            return; // the server's alert
        }
        assertThat(answer).as("no Hello for a refused peer").isNull();
    }

    /** A JDK TLS client that presents the node's certificate whatever authorities the server asks for. */
    private static SSLSocketFactory tlsClientInsistingOn(NodeFiles files) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        CertificateFactory x509 = CertificateFactory.getInstance("X.509");
        Certificate certificate;
        try (var in = Files.newInputStream(files.certificateChain())) {
            certificate = x509.generateCertificate(in);
        }
        String pem = Files.readString(files.privateKey()).replaceAll("-----[A-Z ]+-----|\\s", "");
        PrivateKey key = KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(pem)));
        store.setKeyEntry("node", key, new char[0], new Certificate[] {certificate});
        KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        factory.init(store, new char[0]);
        X509ExtendedKeyManager keys = (X509ExtendedKeyManager) factory.getKeyManagers()[0];
        X509ExtendedKeyManager insistent = new X509ExtendedKeyManager() {
            @Override
            public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
                return "node";
            }

            @Override
            public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
                return "node";
            }

            @Override
            public String[] getClientAliases(String keyType, Principal[] issuers) {
                return new String[] {"node"};
            }

            @Override
            public String[] getServerAliases(String keyType, Principal[] issuers) {
                return null;
            }

            @Override
            public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
                return null;
            }

            @Override
            public X509Certificate[] getCertificateChain(String alias) {
                return keys.getCertificateChain(alias);
            }

            @Override
            public PrivateKey getPrivateKey(String alias) {
                return keys.getPrivateKey(alias);
            }
        };
        SSLContext context = SSLContext.getInstance(PeerTls.PROTOCOL);
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        KeyStore trusted = KeyStore.getInstance("PKCS12");
        trusted.load(null, null);
        try (var in = Files.newInputStream(files.trustedCertificates())) {
            trusted.setCertificateEntry("ca", x509.generateCertificate(in));
        }
        trust.init(trusted);
        context.init(new KeyManager[] {insistent}, trust.getTrustManagers(), null);
        return context.getSocketFactory();
    }

    /** A plain JDK TLS client: with this node's certificate if {@code presentCertificate}, trusting its authority. */
    private static SSLSocketFactory tlsClient(NodeFiles files, boolean presentCertificate) throws IOException {
        SslContextBuilder builder = SslContextBuilder.forClient().sslProvider(SslProvider.JDK).protocols(PeerTls.PROTOCOL)
                .trustManager(files.trustedCertificates().toFile()).endpointIdentificationAlgorithm(null);
        if (presentCertificate) {
            builder.keyManager(files.certificateChain().toFile(), files.privateKey().toFile());
        }
        return ((JdkSslContext) builder.build()).context().getSocketFactory();
    }
}
