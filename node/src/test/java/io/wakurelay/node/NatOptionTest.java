package io.wakurelay.node;

import io.wakurelay.node.config.NodeConfig;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.p2p.nat.NatConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** nwaku's {@code --nat} and {@code --keep-alive}, as nwaku-compose's run_node.sh passes them. */
class NatOptionTest {
    @TempDir
    Path dir;

    private final List<String> warnings = new ArrayList<>();

    private NodeConfig parse(String... args) {
        List<String> all = new ArrayList<>(List.of("--data-dir", dir.toString()));
        all.addAll(List.of(args));
        return NodeMain.parse(all.toArray(String[]::new), Map.of(), warnings::add);
    }

    @Test
    void extipAnnouncesTheIpWithTheTcpAndWebSocketPortsBeforeTheExtMultiaddrs() {
        NodeConfig c = parse("--nat=extip:203.0.113.7", "--ports-shift=1", "--websocket-support",
                "--ext-multiaddr=/dns4/node.example/tcp/443/wss");
        assertThat(c.host().announceAddresses()).containsExactly(Multiaddr.parse("/ip4/203.0.113.7/tcp/60001"),
                Multiaddr.parse("/ip4/203.0.113.7/tcp/8001/ws"), Multiaddr.parse("/dns4/node.example/tcp/443/wss"));
        assertThat(parse("--nat=EXTIP:2001:db8::7").host().announceAddresses())
                .containsExactly(Multiaddr.parse("/ip6/2001:db8::7/tcp/60000"));
        assertThat(parse("--nat=extip:203.0.113.7", "--ext-multiaddr-only", "--ext-multiaddr=/ip4/198.51.100.1/tcp/1")
                .host().announceAddresses()).as("--ext-multiaddr-only: those alone, as nwaku")
                .containsExactly(Multiaddr.parse("/ip4/198.51.100.1/tcp/1"));
        assertThat(warnings).isEmpty();
    }

    @Test
    void noneAnnouncesTheBoundAddressAndIsTheDefault() {
        assertThat(parse().host().announceAddresses()).isEmpty();
        assertThat(parse("--nat=none").host().announceAddresses()).isEmpty();
        assertThat(warnings).isEmpty();
    }

    @Test
    void portMappingIsAskedOfTheGatewayDescribedAsThisNode() {
        for (String method : List.of("any", "upnp", "PMP")) {
            NodeConfig c = parse("--nat=" + method);
            assertThat(c.nat().method()).isEqualTo(NatConfig.Method.of(method));
            assertThat(c.nat().description()).isEqualTo(NodeConfig.DEFAULTS.host().agentVersion());
            assertThat(c.host().announceAddresses()).as("the gateway's address is known once it answers").isEmpty();
        }
        assertThat(parse("--nat=none").nat()).isNull();
        assertThat(parse("--nat=extip:203.0.113.7").nat()).isNull();
        assertThat(warnings).isEmpty();
    }

    @Test
    void portMappingNeedsFixedPorts() {
        assertThatThrownBy(() -> parse("--nat=upnp", "--tcp-port=0"))
                .hasMessageContaining("--nat: upnp maps the ports at the gateway before they are bound: it needs a "
                        + "fixed --tcp-port, not 0");
        assertThatThrownBy(() -> parse("--nat=any", "--websocket-support", "--websocket-port=0"))
                .hasMessageContaining("a fixed --tcp-port and --websocket-port, not 0");
    }

    @Test
    void aBadMethodOrAddressIsRefusedInNwakusWords() {
        assertThatThrownBy(() -> parse("--nat=stun")).hasMessageContaining("--nat: not a valid NAT mechanism: stun");
        assertThatThrownBy(() -> parse("--nat=extip:300.1.2.3")).hasMessageContaining("--nat: not a valid IP address: 300.1.2.3");
        assertThatThrownBy(() -> parse("--nat=extip:node.example")).hasMessageContaining("not a valid IP address");
        assertThatThrownBy(() -> parse("--nat=extip:203.0.113.7", "--tcp-port=0"))
                .hasMessageContaining("--nat: extip needs a fixed --tcp-port");
    }

    @Test
    void keepAliveIsAcceptedAsNwakusNoOp() {
        assertThat(parse("--keep-alive=true")).isEqualTo(parse("--keep-alive=false"));
        assertThat(warnings).isEmpty();
    }

    @Test
    void aStartedNodeAnnouncesTheExternalIpInItsListenAddressesAndItsEnr() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        NodeConfig c = parse("--nat=extip:203.0.113.7", "--listen-address=127.0.0.1", "--tcp-port=" + port,
                "--rest=false", "--metrics-server=false");
        try (WakuNode node = WakuNode.start(c)) {
            assertThat(node.listenAddresses().get(0)).isEqualTo("/ip4/203.0.113.7/tcp/" + port + "/p2p/" + node.peerId());
            assertThat(node.enr().ip4()).contains(InetAddress.getByName("203.0.113.7"));
            assertThat(node.enr().tcp()).contains(port);
            assertThat(node.peerAddress().getPort()).as("bound where it was told").isEqualTo(port);
        }
    }
}
