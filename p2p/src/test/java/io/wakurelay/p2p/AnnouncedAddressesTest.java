package io.wakurelay.p2p;

import io.wakurelay.p2p.connection.Transport;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What identify announces, as nwaku forms it: the bound addresses, a DNS name, and --ext-multiaddr. */
class AnnouncedAddressesTest {
    private static final InetSocketAddress TCP = new InetSocketAddress("10.1.2.3", 60000);
    private static final InetSocketAddress WS = new InetSocketAddress("10.1.2.3", 8000);

    private static List<String> announced(HostConfigBuilder config, Transport ws) {
        return AnnouncedAddresses.of(config.listenAddress(TCP).build(), TCP, ws == null ? null : WS, ws).stream()
                .map(Multiaddr::toString).toList();
    }

    @Test
    void theBoundTcpAddressThenTheWebSocketOne() {
        assertThat(announced(HostConfig.builder(), null)).containsExactly("/ip4/10.1.2.3/tcp/60000");
        assertThat(announced(HostConfig.builder(), Transport.WS))
                .containsExactly("/ip4/10.1.2.3/tcp/60000", "/ip4/10.1.2.3/tcp/8000/ws");
        assertThat(announced(HostConfig.builder(), Transport.WSS))
                .containsExactly("/ip4/10.1.2.3/tcp/60000", "/ip4/10.1.2.3/tcp/8000/wss");
    }

    @Test
    void aDnsNameReplacesTheBoundAddressesOfBothTransportsAsNwakusDns4DomainName() {
        assertThat(announced(HostConfig.builder().dns4DomainName("node.example.org"), Transport.WSS))
                .containsExactly("/dns4/node.example.org/tcp/60000", "/dns4/node.example.org/tcp/8000/wss");
    }

    @Test
    void anExternalAddressReplacesTheBoundAddressOfItsTransportOnly() {
        HostConfigBuilder tcpOnly = HostConfig.builder().announceAddresses(List.of(Multiaddr.parse("/ip4/1.2.3.4/tcp/60000")));
        assertThat(announced(tcpOnly, Transport.WS))
                .containsExactly("/ip4/10.1.2.3/tcp/8000/ws", "/ip4/1.2.3.4/tcp/60000");
        HostConfigBuilder wsOnly = HostConfig.builder().announceAddresses(List.of(Multiaddr.parse("/dns4/a.example/tcp/443/wss")));
        assertThat(announced(wsOnly, Transport.WS))
                .containsExactly("/ip4/10.1.2.3/tcp/60000", "/dns4/a.example/tcp/443/wss");
        assertThat(announced(wsOnly.dns4DomainName("node.example.org"), Transport.WS)).containsExactly(
                "/dns4/node.example.org/tcp/60000", "/dns4/node.example.org/tcp/8000/ws", "/dns4/a.example/tcp/443/wss");
    }

    @Test
    void withExternalAddressesOnlyTheExternalAddressesAloneAreAnnouncedAsNwakusExtMultiaddrOnly() {
        HostConfigBuilder only = HostConfig.builder().externalAddressesOnly(true).dns4DomainName("node.example.org")
                .announceAddresses(List.of(Multiaddr.parse("/ip4/1.2.3.4/tcp/30303"), Multiaddr.parse("/dns4/a.example/tcp/443/wss")));
        assertThat(announced(only, Transport.WS)).containsExactly("/ip4/1.2.3.4/tcp/30303", "/dns4/a.example/tcp/443/wss");
    }

    @Test
    void externalAddressesOnlyWithoutAnyIsRefusedRatherThanAnnouncingNothing() {
        assertThatThrownBy(() -> HostConfig.builder().externalAddressesOnly(true).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--ext-multiaddr-only without --ext-multiaddr");
    }
}
