package io.wakurelay.p2p;

import io.wakurelay.p2p.connection.Connection;
import io.wakurelay.testkit.Eventually;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ClosedConnectionsTest {
    private final TestHosts hosts = new TestHosts();

    @AfterEach
    void close() {
        hosts.close();
    }

    /**
     * A closed connection must not stay reachable until its next ping would have been due: with connection churn
     * that held every recently closed connection (channel, muxer, Noise state) in memory, in proportion to the churn.
     */
    @Test
    void aClosedConnectionIsNotHeldUntilItsNextPing() throws InterruptedException {
        Host target = hosts.start(b -> b.pingInterval(Duration.ofHours(1)));
        List<WeakReference<Connection>> closed = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            Host peer = hosts.start(b -> b.pingInterval(Duration.ofHours(1)));
            Connection outbound = peer.dial(TestHosts.address(target)).block(Duration.ofSeconds(10));
            Eventually.until(() -> target.connection(peer.peerId()).isPresent(), Duration.ofSeconds(10));
            Connection inbound = target.connection(peer.peerId()).orElseThrow();
            closed.add(new WeakReference<>(inbound));
            outbound.close();
            inbound.onClose().block(Duration.ofSeconds(10));
            Eventually.until(() -> target.connections().isEmpty(), Duration.ofSeconds(10));
        }

        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (closed.stream().anyMatch(r -> r.get() != null) && System.nanoTime() < deadline) {
            System.gc();
            Thread.sleep(100);
        }
        assertThat(closed.stream().filter(r -> r.get() != null).count()).as("closed connections still reachable").isZero();
    }
}
