package io.wakurelay.p2p.nat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.testkit.Eventually;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class NatMappingTest {
    private static final NatConfig QUICK = NatConfig.builder().ssdpWait(Duration.ofMillis(400))
            .pmpFirstTimeout(Duration.ofMillis(50)).pmpAttempts(2).httpTimeout(Duration.ofSeconds(2)).build();
    private static final List<NatPort> PORTS = List.of(NatPort.tcp(60000), NatPort.udp(9000));

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final NatMetrics metrics = new NatMetrics(registry);
    private FakeIgd igd;
    private FakePmp pmp;
    private DatagramSocket silent;

    @AfterEach
    void stop() {
        if (igd != null) {
            igd.close();
        }
        if (pmp != null) {
            pmp.close();
        }
        if (silent != null) {
            silent.close();
        }
    }

    private double gauge(String name, String tag, String value) {
        return registry.get(name).tag(tag, value).gauge().value();
    }

    private double failures(String operation) {
        return registry.get("libp2p_nat_failures").tag("operation", operation).counter().count();
    }

    /** An SSDP "group" where nothing answers. */
    private InetSocketAddress nobody() throws Exception {
        silent = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        return (InetSocketAddress) silent.getLocalSocketAddress();
    }

    @Test
    void upnpMapsEveryPortAsNwakuAsksAndDeletesThemAtShutdown() throws Exception {
        igd = new FakeIgd();
        NatMapping nat = NatMapping.start(QUICK, PORTS, metrics, List.of(Finders.upnp(QUICK, igd.ssdpAddress())));

        assertThat(nat.state()).isEqualTo(NatState.MAPPED);
        assertThat(nat.externalAddress()).contains(InetAddress.getByName("100.128.0.1"));
        assertThat(nat.externalPort(NatPort.tcp(60000))).isEqualTo(60000);
        assertThat(igd.entries()).containsExactlyInAnyOrder(
                new FakeIgd.Entry("TCP", 60000, "127.0.0.1", 60000, "wakurelay", 0),
                new FakeIgd.Entry("UDP", 9000, "127.0.0.1", 9000, "wakurelay", 0));
        assertThat(gauge("libp2p_nat_state", "state", "mapped")).isEqualTo(1);
        assertThat(gauge("libp2p_nat_gateway", "protocol", "upnp")).isEqualTo(1);
        assertThat(gauge("libp2p_nat_mapped_ports", "protocol", "tcp")).isEqualTo(1);
        assertThat(gauge("libp2p_nat_mapped_ports", "protocol", "udp")).isEqualTo(1);

        nat.shutdown(Duration.ofSeconds(5)).block();

        assertThat(igd.entries()).isEmpty();
        assertThat(gauge("libp2p_nat_state", "state", "off")).isEqualTo(1);
        assertThat(gauge("libp2p_nat_mapped_ports", "protocol", "tcp")).isZero();
        assertThat(failures("unmap")).isZero();
    }

    @Test
    void everyMappingIsAskedForAgainAtEachRenewal() throws Exception {
        igd = new FakeIgd();
        NatConfig config = QUICK.toBuilder().renewInterval(Duration.ofMillis(200)).build();
        NatMapping nat = NatMapping.start(config, PORTS, metrics, List.of(Finders.upnp(config, igd.ssdpAddress())));
        try {
            igd.mappings.clear(); // the gateway restarted and forgot them
            Eventually.until("the mappings are back", Duration.ofSeconds(10), () -> igd.entries().size() == 2
                    && registry.get("libp2p_nat_renewals").counter().count() >= 2);
        } finally {
            nat.close();
        }
        assertThat(igd.entries()).isEmpty();
    }

    @Test
    void anyFallsBackToNatPmpWhenNoUpnpGatewayAnswers() throws Exception {
        pmp = new FakePmp();
        NatMapping nat = NatMapping.start(QUICK, PORTS, metrics,
                List.of(Finders.upnp(QUICK, nobody()), Finders.pmp(QUICK, pmp.address())));

        assertThat(nat.state()).isEqualTo(NatState.MAPPED);
        assertThat(nat.externalAddress()).contains(InetAddress.getByName("100.128.0.1"));
        assertThat(pmp.mappings).containsOnlyKeys("TCP 60000", "UDP 9000");
        assertThat(gauge("libp2p_nat_gateway", "protocol", "pmp")).isEqualTo(1);
        assertThat(failures("discover")).isEqualTo(1);

        nat.shutdown(Duration.ofSeconds(5)).block();
        assertThat(pmp.mappings).isEmpty();
    }

    @Test
    void aNatPmpGatewayThatGivesAnotherPortIsAnnouncedAtThatPort() throws Exception {
        pmp = new FakePmp();
        pmp.portOffset = 7;
        try (NatMapping nat = NatMapping.start(QUICK, PORTS, metrics, List.of(Finders.pmp(QUICK, pmp.address())))) {
            assertThat(nat.externalPort(NatPort.tcp(60000))).isEqualTo(60007);
            assertThat(nat.externalPort(NatPort.udp(9000))).isEqualTo(9007);
        }
        assertThat(pmp.mappings).isEmpty();
    }

    @Test
    void withoutAnyGatewayTheBoundAddressIsAnnouncedAsNwakuDoes() throws Exception {
        pmp = new FakePmp();
        pmp.silent = true;
        long started = System.nanoTime();
        try (NatMapping nat = NatMapping.start(QUICK, PORTS, metrics,
                List.of(Finders.upnp(QUICK, nobody()), Finders.pmp(QUICK, pmp.address())))) {
            assertThat(nat.state()).isEqualTo(NatState.UNAVAILABLE);
            assertThat(nat.externalAddress()).isEmpty();
            assertThat(nat.externalPort(NatPort.tcp(60000))).isEqualTo(60000);
            assertThat(gauge("libp2p_nat_state", "state", "unavailable")).isEqualTo(1);
        }
        // SSDP's 400 ms, then NAT-PMP's two attempts (50 + 100 ms)
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(3));
        assertThat(pmp.requests.get()).as("NAT-PMP asked at most pmpAttempts times").isEqualTo(2);
        assertThat(failures("discover")).isEqualTo(1);
        assertThat(failures("external_address")).isEqualTo(1);
    }

    @Test
    void aRefusedMappingKeepsTheExternalAddressWithTheBoundPort() throws Exception {
        igd = new FakeIgd();
        igd.refuseAdd = 718; // ConflictInMappingEntry
        try (NatMapping nat = NatMapping.start(QUICK, PORTS, metrics,
                List.of(Finders.upnp(QUICK, igd.ssdpAddress())))) {
            assertThat(nat.state()).isEqualTo(NatState.EXTERNAL_ADDRESS_ONLY);
            assertThat(nat.externalAddress()).contains(InetAddress.getByName("100.128.0.1"));
            assertThat(nat.externalPort(NatPort.tcp(60000))).isEqualTo(60000);
            assertThat(nat.mapped()).isEmpty();
            assertThat(failures("map")).isEqualTo(2);
        }
    }

    @Test
    void aPortForwardedByHandIsNeitherAskedForNorDeleted() throws Exception {
        igd = new FakeIgd();
        FakeIgd.Entry byHand = new FakeIgd.Entry("TCP", 60000, "127.0.0.1", 60000, "the operator's", 0);
        igd.mappings.put("TCP 60000", byHand);
        NatMapping nat = NatMapping.start(QUICK, PORTS, metrics, List.of(Finders.upnp(QUICK, igd.ssdpAddress())));

        assertThat(nat.state()).isEqualTo(NatState.MAPPED);
        assertThat(nat.mapped()).contains(new MappedPort(NatPort.tcp(60000), 60000, false));
        nat.shutdown(Duration.ofSeconds(5)).block();

        assertThat(igd.entries()).containsExactly(byHand);
        assertThat(igd.actions).filteredOn("AddPortMapping"::equals).hasSize(1); // UDP's only
    }
}
