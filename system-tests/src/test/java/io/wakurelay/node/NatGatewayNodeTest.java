package io.wakurelay.node;

import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.testkit.Eventually;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code --nat=upnp} and {@code --nat=pmp} against a real gateway: Debian's miniupnpd in a network namespace of the
 * test ({@link MiniupnpdGateway}), the node in another whose default route is the gateway. The node maps its TCP port
 * and discv5's UDP port, announces the gateway's external address in its listen addresses and its ENR, a peer outside
 * reaches it there, and the mappings are gone once it stopped; miniupnpc's {@code upnpc}, miniupnpd's lease file and
 * its DNAT rules are the independent witnesses.
 */
@Tag("process")
class NatGatewayNodeTest {
    private static final int TCP = 60000;
    private static final int UDP = 9000;
    private static final Pattern ENR = Pattern.compile("node started .* enr=(enr:\\S+)");

    @TempDir
    static Path dir;
    private static MiniupnpdGateway gateway;

    @BeforeAll
    static void startGateway() {
        gateway = MiniupnpdGateway.start(dir);
    }

    @AfterAll
    static void stopGateway() {
        if (gateway != null) {
            gateway.close();
        }
    }

    private static NodeProcess node(String method, Path data) {
        List<String> args = new ArrayList<>(List.of("--data-dir", data.toString(), "--nat=" + method,
                "--tcp-port=" + TCP, "--discv5-discovery=true", "--discv5-udp-port=" + UDP, "--rest=false",
                "--metrics-server=false", "--store=false"));
        return NodeProcess.start(gateway.onLan(), List.of("-Xmx192m", "-Dio.netty.leakDetection.level=paranoid"), args,
                Map.of(), Duration.ofSeconds(90), dir.resolve(method + ".log"));
    }

    private static Enr enr(NodeProcess node) {
        for (String line : node.output()) {
            Matcher m = ENR.matcher(line);
            if (m.find()) {
                return Enr.parse(m.group(1));
            }
        }
        throw new AssertionError("no ENR in the start line: " + node.output());
    }

    @Test
    void upnpMapsThePortsAnnouncesTheExternalAddressAndDeletesTheMappingsAtShutdown() throws Exception {
        NodeProcess node = node("upnp", dir.resolve("upnp"));
        try {
            assertThat(node.multiaddr().toString())
                    .isEqualTo("/ip4/" + MiniupnpdGateway.EXTERNAL_IP + "/tcp/" + TCP + "/p2p/" + node.peerId());
            Enr enr = enr(node);
            assertThat(enr.ip4()).contains(InetAddress.getByName(MiniupnpdGateway.EXTERNAL_IP));
            assertThat(enr.tcp()).contains(TCP);
            assertThat(enr.udp()).contains(UDP);

            String listed = gateway.upnpcList();
            assertThat(listed).as("upnpc -l")
                    .containsPattern("TCP\\s+" + TCP + "->" + MiniupnpdGateway.LAN_IP + ":" + TCP + "\\s+'wakurelay/")
                    .containsPattern("UDP\\s+" + UDP + "->" + MiniupnpdGateway.LAN_IP + ":" + UDP + "\\s+'wakurelay/");
            assertThat(gateway.leaseFile()).contains("TCP:" + TCP + ":" + MiniupnpdGateway.LAN_IP + ":" + TCP + ":")
                    .contains("UDP:" + UDP + ":" + MiniupnpdGateway.LAN_IP + ":" + UDP + ":");
            assertThat(gateway.natRules()).contains("dpt:" + TCP).contains("dpt:" + UDP);
            assertThat(gateway.reachableFromOutside(TCP)).as("a peer outside connects to the announced address")
                    .isTrue();
        } finally {
            assertThat(node.stop(Duration.ofSeconds(30))).as("graceful exit on SIGTERM").isIn(0, 143);
        }
        assertThat(gateway.upnpcList()).doesNotContain("->" + MiniupnpdGateway.LAN_IP);
        assertThat(gateway.natRules()).doesNotContain("dpt:" + TCP).doesNotContain("dpt:" + UDP);
        assertThat(node.output()).anyMatch(l -> l.contains("NAT: mapping deleted mapping=TCP " + TCP))
                .noneMatch(l -> l.contains("LEAK:"));
    }

    @Test
    void natPmpMapsThePortsAtTheDefaultGatewayAndDeletesThemAtShutdown() throws Exception {
        NodeProcess node = node("pmp", dir.resolve("pmp"));
        try {
            assertThat(node.multiaddr().toString()).startsWith("/ip4/" + MiniupnpdGateway.EXTERNAL_IP + "/tcp/");
            Enr enr = enr(node);
            assertThat(enr.ip4()).contains(InetAddress.getByName(MiniupnpdGateway.EXTERNAL_IP));
            int external = enr.tcp().orElseThrow();
            Eventually.until("miniupnpd holds the mappings", Duration.ofSeconds(10),
                    () -> gateway.natRules().contains("dpt:" + external));
            assertThat(gateway.natRules()).contains("dpt:" + enr.udp().orElseThrow());
            assertThat(gateway.reachableFromOutside(external)).isTrue();
        } finally {
            assertThat(node.stop(Duration.ofSeconds(30))).as("graceful exit on SIGTERM").isIn(0, 143);
        }
        assertThat(gateway.natRules()).doesNotContain("to:" + MiniupnpdGateway.LAN_IP);
        assertThat(node.output()).anyMatch(l -> l.contains("NAT-PMP at " + MiniupnpdGateway.GATEWAY_IP))
                .noneMatch(l -> l.contains("LEAK:"));
    }
}
