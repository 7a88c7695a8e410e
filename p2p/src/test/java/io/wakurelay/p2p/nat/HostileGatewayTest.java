package io.wakurelay.p2p.nat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What a device on the local network can make of the node's port mapping: it is a failure, counted, bounded in time
 * and bytes, and it leaves the node announcing its bound address; no request goes to another host.
 */
class HostileGatewayTest {
    private static final NatConfig QUICK = NatConfig.builder().ssdpWait(Duration.ofMillis(500))
            .httpTimeout(Duration.ofSeconds(1)).maxResponseBytes(4096).pmpFirstTimeout(Duration.ofMillis(50))
            .pmpAttempts(2).build();
    private static final List<NatPort> PORTS = List.of(NatPort.tcp(60000));

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final NatMetrics metrics = new NatMetrics(registry);
    private FakeIgd igd;

    @AfterEach
    void stop() {
        if (igd != null) {
            igd.close();
        }
    }

    private NatMapping startUpnp() {
        return NatMapping.start(QUICK, PORTS, metrics, List.of(Finders.upnp(QUICK, igd.ssdpAddress())));
    }

    private double failures(String operation) {
        return registry.get("libp2p_nat_failures").tag("operation", operation).counter().count();
    }

    @Test
    void aDescriptionLargerThanTheBoundIsNotRead() throws Exception {
        igd = new FakeIgd();
        igd.description = ("<root>" + "<x>padding</x>".repeat(10_000) + "</root>").getBytes(StandardCharsets.UTF_8);
        try (NatMapping nat = startUpnp()) {
            assertThat(nat.state()).isEqualTo(NatState.UNAVAILABLE);
        }
        assertThat(failures("discover")).isEqualTo(1);
    }

    @Test
    void aDescriptionWithADtdIsRefusedSoNoEntityIsExpanded() throws Exception {
        igd = new FakeIgd();
        igd.description = ("<?xml version=\"1.0\"?><!DOCTYPE root [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;"
                + "&a;&a;&a;&a;&a;&a;&a;\">]><root><URLBase>&b;</URLBase></root>").getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> UpnpGateway.discover(QUICK, igd.ssdpAddress()))
                .isInstanceOf(NatException.class).hasMessageContaining("DOCTYPE");
    }

    @Test
    void aLocationOnAnotherHostIsNotFetched() throws Exception {
        igd = new FakeIgd();
        igd.location = "http://127.0.0.2:" + igd.base().substring(igd.base().lastIndexOf(':') + 1) + "/rootDesc.xml";
        try (NatMapping nat = startUpnp()) {
            assertThat(nat.state()).isEqualTo(NatState.UNAVAILABLE);
        }
        assertThat(igd.actions).isEmpty();
        assertThat(Ssdp.location("HTTP/1.1 200 OK\r\nLOCATION: http://127.0.0.2:5000/d.xml\r\n\r\n",
                InetAddress.getLoopbackAddress())).as("another host than the one that answered").isEmpty();
        assertThat(Ssdp.location("HTTP/1.1 200 OK\r\nLOCATION: https://127.0.0.1:5000/d.xml\r\n\r\n",
                InetAddress.getLoopbackAddress())).as("not http").isEmpty();
        assertThat(Ssdp.location("HTTP/1.1 200 OK\r\nLOCATION: http://gateway.example/d.xml\r\n\r\n",
                InetAddress.getLoopbackAddress())).as("a name is never looked up").isEmpty();
        assertThat(Ssdp.location("HTTP/1.1 200 OK\r\nLocation: http://127.0.0.1:5000/d.xml\r\n\r\n",
                InetAddress.getLoopbackAddress())).isPresent();
    }

    @Test
    void aControlUrlOnAnotherHostIsRefused() throws Exception {
        igd = new FakeIgd();
        igd.description = new String(FakeIgd.normalDescription(), StandardCharsets.UTF_8)
                .replace("<controlURL>/ctl/IPConn", "<controlURL>http://192.0.2.1/ctl/IPConn")
                .getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> UpnpGateway.discover(QUICK, igd.ssdpAddress()))
                .isInstanceOf(NatException.class).hasMessageContaining("is not on the gateway");
    }

    @Test
    void aGatewayThatNeverAnswersTakesOneTimeoutPerExchange() throws Exception {
        try (ServerSocket mute = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
             DatagramSocket ssdp = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            Thread answer = new Thread(() -> {
                try {
                    DatagramPacket p = new DatagramPacket(new byte[2048], 2048);
                    ssdp.receive(p);
                    byte[] a = ("HTTP/1.1 200 OK\r\nLOCATION: http://127.0.0.1:" + mute.getLocalPort() + "/d.xml\r\n\r\n")
                            .getBytes(StandardCharsets.US_ASCII);
                    ssdp.send(new DatagramPacket(a, a.length, p.getSocketAddress()));
                    try (Socket s = mute.accept()) {
                        Thread.sleep(5_000); // accepts, reads nothing, says nothing
                    }
                } catch (Exception e) {
                    // the test ended
                }
            });
            answer.setDaemon(true);
            answer.start();
            long started = System.nanoTime();
            try (NatMapping nat = NatMapping.start(QUICK, PORTS, metrics,
                    List.of(Finders.upnp(QUICK, (InetSocketAddress) ssdp.getLocalSocketAddress())))) {
                assertThat(nat.state()).isEqualTo(NatState.UNAVAILABLE);
            }
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(3));
        }
    }

    @Test
    void aFloodOfSsdpAnswersIsReadOnlyUpToItsBound() throws Exception {
        try (DatagramSocket flood = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            Thread flooder = new Thread(() -> {
                try {
                    DatagramPacket p = new DatagramPacket(new byte[2048], 2048);
                    flood.receive(p);
                    byte[] junk = "HTTP/1.1 200 OK\r\nLOCATION: ftp://x\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
                    for (int i = 0; i < 10_000; i++) {
                        flood.send(new DatagramPacket(junk, junk.length, p.getSocketAddress()));
                    }
                } catch (Exception e) {
                    // the test ended
                }
            });
            flooder.setDaemon(true);
            flooder.start();
            long started = System.nanoTime();
            assertThat(Ssdp.discover((InetSocketAddress) flood.getLocalSocketAddress(), Duration.ofSeconds(2), 1))
                    .isEmpty();
            assertThat(Duration.ofNanos(System.nanoTime() - started)).as("stopped reading at the bound, not the wait")
                    .isLessThan(Duration.ofMillis(1900));
        }
    }

    @Test
    void anExternalAddressThatIsNoAddressIsAFailure() throws Exception {
        igd = new FakeIgd();
        igd.externalIp = "0.0.0.0";
        try (NatMapping nat = startUpnp()) {
            assertThat(nat.state()).isEqualTo(NatState.UNAVAILABLE);
        }
        igd.externalIp = "gateway.example";
        try (NatMapping nat = startUpnp()) {
            assertThat(nat.state()).isEqualTo(NatState.UNAVAILABLE);
        }
        assertThat(failures("external_address")).isEqualTo(2);
    }

    @Test
    void aSoapAnswerLargerThanTheBoundIsAFailure() throws Exception {
        igd = new FakeIgd();
        igd.externalIp = "1".repeat(8000);
        try (NatMapping nat = startUpnp()) {
            assertThat(nat.state()).isEqualTo(NatState.UNAVAILABLE);
        }
        assertThat(failures("external_address")).isEqualTo(1);
    }

    @Test
    void natPmpAnswersThatAreNotTheAnswerAreIgnored() throws Exception {
        try (FakePmp pmp = new FakePmp()) {
            pmp.junkBefore = 20;
            try (NatMapping nat = NatMapping.start(QUICK, PORTS, metrics, List.of(Finders.pmp(QUICK, pmp.address())))) {
                assertThat(nat.state()).isEqualTo(NatState.MAPPED);
            }
        }
    }

    @Test
    void aNatPmpRefusalIsNamedByItsResultCode() throws Exception {
        try (FakePmp pmp = new FakePmp()) {
            pmp.result = 2;
            assertThatThrownBy(() -> new PmpGateway(pmp.address(), QUICK).externalAddress())
                    .isInstanceOf(NatException.class).hasMessageContaining("result 2 (not authorized");
        }
    }

    @Test
    void aGatewayWithoutNatPmpFailsAtOnce() throws Exception {
        int closed;
        try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            closed = s.getLocalPort();
        }
        long started = System.nanoTime();
        assertThatThrownBy(() -> new PmpGateway(new InetSocketAddress(InetAddress.getLoopbackAddress(), closed),
                QUICK.toBuilder().pmpFirstTimeout(Duration.ofSeconds(2)).build()).externalAddress())
                .isInstanceOf(NatException.class).hasMessageContaining("port unreachable");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(1));
    }

}
