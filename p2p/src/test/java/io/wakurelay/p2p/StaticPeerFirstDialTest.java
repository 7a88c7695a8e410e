package io.wakurelay.p2p;

import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a node's readiness waits for (nwaku's start waits for its static nodes): {@link Host#addStaticPeer} tells when
 * the peer's first dial has ended, connected or failed, and not before.
 */
class StaticPeerFirstDialTest {
    private final TestHosts hosts = new TestHosts();

    @AfterEach
    void close() {
        hosts.close();
    }

    @Test
    void theFirstDialEndsConnectedWhenThePeerIsThere() {
        Host b = hosts.start();
        Host a = hosts.start();
        a.addStaticPeer(TestHosts.address(b)).block(Duration.ofSeconds(10));
        assertThat(a.connection(b.peerId())).as("connected once the first dial has ended").isPresent();
    }

    @Test
    void theFirstDialEndsWhenThePeerRefusesTheConnection() throws IOException {
        int closedPort;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = free.getLocalPort();
        }
        PeerId nobody = PeerId.fromPublicKey(PrivateKey.generateEd25519().publicKey());
        Host a = hosts.start();
        a.addStaticPeer(Multiaddr.parse("/ip4/127.0.0.1/tcp/" + closedPort + "/p2p/" + nobody))
                .block(Duration.ofSeconds(10));
        assertThat(a.connection(nobody)).isEmpty();
    }

    @Test
    void theFirstDialHasNotEndedWhileTheHandshakeIsUnderWay() throws Exception {
        // a listener that accepts and never answers: the dial lasts until the handshake timeout
        try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            PeerId nobody = PeerId.fromPublicKey(PrivateKey.generateEd25519().publicKey());
            Host a = hosts.start(c -> c.handshakeTimeout(Duration.ofSeconds(2)));
            var firstDial = a.addStaticPeer(Multiaddr.parse("/ip4/127.0.0.1/tcp/" + silent.getLocalPort() + "/p2p/"
                    + nobody)).toFuture();
            Thread.sleep(500);
            assertThat(firstDial).as("still dialling").isNotDone();
            firstDial.get(10, java.util.concurrent.TimeUnit.SECONDS);
        }
    }
}
