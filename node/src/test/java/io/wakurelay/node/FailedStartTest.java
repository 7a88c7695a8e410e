package io.wakurelay.node;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A node that cannot start closes what it had started: the archive's lock, the p2p port and the metrics port. */
class FailedStartTest {
    @TempDir
    Path dir;

    @Test
    void aNodeWhoseRestPortIsTakenFailsToStartAndReleasesEverythingItOpened() throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            NodeConfig config = TestNodes.local(dir).metrics(TestNodes.metrics())
                    .rest(TestNodes.rest().port(taken.getLocalPort()).build()).build();

            assertThatThrownBy(() -> WakuNode.start(config)).as("REST starts last, after the archive, host and relay")
                    .isInstanceOf(RuntimeException.class);
        }
        // RocksDB holds a lock on its directory while open: a second node on the same data starts only if the
        // first one closed its archive
        try (WakuNode node = WakuNode.start(TestNodes.local(dir).build())) {
            assertThat(node.archive()).isNotNull();
            assertThat(node.archive().healthy()).isTrue();
        }
    }
}
