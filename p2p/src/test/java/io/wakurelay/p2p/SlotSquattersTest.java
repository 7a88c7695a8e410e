package io.wakurelay.p2p;

import io.wakurelay.p2p.connection.Connection;
import io.wakurelay.testkit.Eventually;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 27, G3: 40 silent sockets renewed every 8 s (under the 10 s handshake deadline) took every inbound slot of a
 * node, and 0 of 19 honest inbound handshakes got in. Here against a host with the default limits (50 connections,
 * 10 kept for dials, 5 per address), the squatters renewed every 2 s, under the 3 s deadline of a socket's first
 * bytes too: neither deadline lets their slots go.
 */
class SlotSquattersTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final int SQUATTERS = 40;
    private static final int HONEST = 10;
    private final TestHosts hosts = new TestHosts();
    private Squatters squatters;

    @AfterEach
    void close() throws Exception {
        if (squatters != null) {
            squatters.close();
        }
        hosts.close();
    }

    @Test
    void squattersFromOneAddressHoldOnlyItsShareAndEveryHonestPeerGetsIn() throws Exception {
        Host target = hosts.start(x -> x);
        squatters = new Squatters(target.boundAddress(), addresses(2, 1), SQUATTERS, 2000);
        Eventually.until("the host saw every squatter", WAIT, () -> target.countedSockets()
                + rejected(target, "too_many_from_address") + rejected(target, "too_many_connections") >= SQUATTERS);

        List<Connection> honest = dialFrom(target, addresses(3, HONEST));

        assertThat(honest).hasSize(HONEST).allMatch(Connection::isOpen);
        assertThat(rejected(target, "too_many_from_address")).isGreaterThanOrEqualTo(SQUATTERS - 5);
        // the host completes its side of a handshake a moment after the dialer
        Eventually.until("the host upgraded every honest connection", WAIT, () -> handshakes(target, "success") == HONEST);
        report("one address", target);
    }

    @Test
    void squattersFromManyAddressesAreEvictedForHonestNewcomers() throws Exception {
        Host target = hosts.start(x -> x);
        // one squatter per address: the per-address limit alone does not stop them
        squatters = new Squatters(target.boundAddress(), addresses(10, SQUATTERS), SQUATTERS, 2000);
        Eventually.until("every inbound slot squatted", WAIT,
                () -> target.countedSockets() == HostConfig.DEFAULTS.maxInbound());

        List<Connection> honest = dialFrom(target, addresses(3, HONEST));

        assertThat(honest).hasSize(HONEST).allMatch(Connection::isOpen);
        Eventually.until("a squatter evicted for each", WAIT, () -> handshakes(target, "evicted") >= HONEST);
        // the host completes its side of a handshake a moment after the dialer
        Eventually.until("the host upgraded every honest connection", WAIT, () -> handshakes(target, "success") == HONEST);
        report("one address each", target);
    }

    private void report(String squatting, Host target) {
        System.out.printf("SlotSquattersTest, G3: %d squatters (%s), renewed every 2 s: %d of %d honest peers got in; "
                        + "refused too_many_from_address %.0f, too_many_connections %.0f; evicted %.0f; "
                        + "first_bytes_timeout %.0f%n", SQUATTERS, squatting, (int) handshakes(target, "success"), HONEST,
                rejected(target, "too_many_from_address"), rejected(target, "too_many_connections"),
                handshakes(target, "evicted"), handshakes(target, "first_bytes_timeout"));
    }

    /** Honest hosts, one on each address, each dials {@code target}; all at once. */
    private List<Connection> dialFrom(Host target, List<InetAddress> from) {
        List<reactor.core.publisher.Mono<Connection>> dials = new ArrayList<>();
        for (InetAddress a : from) {
            Host h = hosts.start(x -> x.listenAddress(new InetSocketAddress(a, 0)));
            dials.add(h.dial(TestHosts.address(target)));
        }
        return reactor.core.publisher.Flux.merge(dials).collectList().block(WAIT);
    }

    private double rejected(Host host, String reason) {
        return TestHosts.count(hosts.registry(host), "libp2p.connections.rejected", "reason", reason);
    }

    private double handshakes(Host host, String outcome) {
        return TestHosts.count(hosts.registry(host), "libp2p.handshakes", "outcome", outcome);
    }

    /** 127.0.0.{first} and the {@code count - 1} addresses after it. */
    private static List<InetAddress> addresses(int first, int count) throws UnknownHostException {
        List<InetAddress> all = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            all.add(InetAddress.getByAddress(new byte[]{127, 0, 0, (byte) (first + i)}));
        }
        return all;
    }
}
