package io.wakurelay.node;

import io.wakurelay.node.config.NodeConfig;
import io.wakurelay.p2p.ListenFailedException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A node that cannot start says why and closes what it had started: the archive's lock, the p2p port and the metrics
 * port.
 */
class FailedStartTest {
    @TempDir
    Path dir;

    @Test
    void aNodeWhoseRestPortIsTakenFailsToStartBeforeItsPeerPortOpensAndReleasesEverythingItOpened() throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             ServerSocket peerPortTaken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            NodeConfig config = TestNodes.local(dir).metrics(TestNodes.metrics())
                    .host(NodeConfig.DEFAULTS.host().toBuilder()
                            .listenAddress(new InetSocketAddress("127.0.0.1", peerPortTaken.getLocalPort())).build())
                    .rest(TestNodes.rest().port(taken.getLocalPort()).build()).build();

            // both ports are taken: the one the node tried first says which it binds first
            assertThatThrownBy(() -> WakuNode.start(config)).as("REST's port is held before the host listens")
                    .isInstanceOf(BindFailedException.class)
                    .hasMessage("cannot listen on 127.0.0.1:" + taken.getLocalPort() + " (REST): address already in use; "
                            + "choose another port with --rest-port (or --ports-shift), or stop what uses it");
        }
        // RocksDB holds a lock on its directory while open: a second node on the same data starts only if the
        // first one closed its archive
        try (WakuNode node = WakuNode.start(TestNodes.local(dir).build())) {
            assertThat(node.archive()).isNotNull();
            assertThat(node.archive().healthy()).isTrue();
        }
    }

    @Test
    void aNodeWhoseMetricsPortIsTakenNamesTheMetricsPortOption() throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            NodeConfig config = TestNodes.local(dir)
                    .metrics(TestNodes.metrics().toBuilder().port(taken.getLocalPort()).build()).build();
            assertThatThrownBy(() -> WakuNode.start(config)).isInstanceOf(BindFailedException.class)
                    .hasMessageContaining("cannot listen on 127.0.0.1:" + taken.getLocalPort() + " (metrics)")
                    .hasMessageContaining("--metrics-server-port");
        }
    }

    @Test
    void aNodeWhosePeerPortIsTakenSaysWhichAddressAndClosesWhatItOpened() throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            NodeConfig config = TestNodes.local(dir).host(NodeConfig.DEFAULTS.host().toBuilder()
                    .listenAddress(new InetSocketAddress("127.0.0.1", taken.getLocalPort())).build()).build();

            // Netty's bind failure is a checked exception: it used to pass by the clean-up as a raw stack trace
            assertThatThrownBy(() -> WakuNode.start(config)).isInstanceOf(ListenFailedException.class)
                    .hasMessageContaining("cannot listen on 127.0.0.1:" + taken.getLocalPort() + " (tcp)")
                    .hasMessageContaining("in use");
        }
        try (WakuNode node = WakuNode.start(TestNodes.local(dir).build())) {
            assertThat(node.archive().healthy()).as("the archive was closed, so it opens again").isTrue();
        }
    }
}
