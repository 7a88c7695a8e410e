package io.wakurelay.p2p;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.p2p.connection.Transport;
import org.junit.jupiter.api.Test;

/**
 * nim-libp2p's dial counters, which nwaku's dashboards read, count what {@code libp2p_dials_total} counts by outcome:
 * attempts are the dials that reached the network, successful and failed ones among them; a dial refused before it
 * began is none of them.
 */
class NimLibp2pDialCountersTest {

    @Test
    void attemptsAreTheDialsThatReachedTheNetworkAndEachEndedInSuccessOrFailure() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        HostMetrics metrics = new HostMetrics(registry, () -> 0);
        assertThat(count(registry, "libp2p.total.dial.attempts")).isZero();

        metrics.dial("success", Transport.TCP);
        metrics.dial("success", Transport.WS);
        metrics.dial("connect_failed", Transport.TCP);
        metrics.dial("handshake_failed", Transport.WSS);
        metrics.dial("no_slot", Transport.TCP);
        metrics.dial("refused", Transport.TCP);

        assertThat(count(registry, "libp2p.total.dial.attempts")).isEqualTo(4);
        assertThat(count(registry, "libp2p.successful.dials")).isEqualTo(2);
        assertThat(count(registry, "libp2p.failed.dials")).isEqualTo(2);
    }

    private static double count(SimpleMeterRegistry registry, String name) {
        return registry.get(name).functionCounter().count();
    }
}
