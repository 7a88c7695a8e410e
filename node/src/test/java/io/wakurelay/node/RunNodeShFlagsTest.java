package io.wakurelay.node;

import io.wakurelay.archive.PostgresConfig;
import io.wakurelay.node.config.NodeConfig;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The command line nwaku-compose's run_node.sh (v0.37.0) executes, without RLN credentials and without a domain, is
 * this node's too: every flag means what it means to nwaku.
 */
class RunNodeShFlagsTest {
    @TempDir
    Path dir;

    /** run_node.sh's exec line, its variables filled in as compose fills them. */
    static List<String> runNodeSh(String ethClient, String externalIp, String postgresUrl) {
        return List.of("--relay=true", "--filter=true", "--peer-exchange=true", "--lightpush=false",
                "--keep-alive=true", "--max-connections=150", "--cluster-id=1", "--discv5-discovery=true",
                "--discv5-udp-port=9005", "--discv5-enr-auto-update=True", "--log-level=DEBUG", "--tcp-port=30304",
                "--metrics-server=True", "--metrics-server-port=8003", "--metrics-server-address=0.0.0.0",
                "--rest=true", "--rest-admin=true", "--rest-address=0.0.0.0", "--rest-port=8645",
                "--rest-allow-origin=waku-org.github.io", "--rest-allow-origin=localhost:*",
                "--nat=extip:" + externalIp, "--store=true", "--store-message-db-url=" + postgresUrl,
                "--rln-relay-eth-client-address=" + ethClient, "--store-message-retention-policy=size:1GB");
    }

    @Test
    void runNodeShsFlagSetIsTheWakuNetworkNodeItIsToNwaku() {
        List<String> args = new ArrayList<>(runNodeSh("http://127.0.0.1:8545", "203.0.113.7",
                "postgres://postgres:secret@postgres:5432/postgres"));
        args.addAll(List.of("--data-dir", dir.toString()));
        List<String> warnings = new ArrayList<>();

        NodeConfig c = NodeMain.parse(args.toArray(String[]::new), Map.of(), warnings::add);

        assertThat(c.relay().clusterId()).isEqualTo(1);
        assertThat(c.relay().pubsubTopics()).containsExactlyElementsOf(
                IntStream.range(0, 8).mapToObj(i -> "/waku/2/rs/1/" + i).toList());
        assertThat(c.rln().ethClientAddresses()).containsExactly(URI.create("http://127.0.0.1:8545"));
        assertThat(c.rln().chainId()).isEqualTo(59141);
        assertThat(c.discovery().discv5().enabled()).isTrue();
        assertThat(c.discovery().discv5().udpPort()).isEqualTo(9005);
        assertThat(c.discovery().discv5().enrAutoUpdate()).isTrue();
        assertThat(c.host().maxConnections()).isEqualTo(150);
        assertThat(c.host().listenAddress().getPort()).isEqualTo(30304);
        assertThat(c.host().announceAddresses()).containsExactly(Multiaddr.parse("/ip4/203.0.113.7/tcp/30304"));
        assertThat(c.logLevel()).isEqualTo("DEBUG");
        assertThat(c.metrics().address()).isEqualTo("0.0.0.0");
        assertThat(c.metrics().port()).isEqualTo(8003);
        assertThat(c.rest().address()).isEqualTo("0.0.0.0");
        assertThat(c.rest().admin()).isTrue();
        assertThat(c.rest().allowOrigins()).containsExactly("waku-org.github.io", "localhost:*");
        assertThat(c.services().lightpush()).isNull();
        assertThat(c.services().filter()).isNotNull();
        assertThat(((PostgresConfig) c.archive()).describe()).isEqualTo("postgres:5432/postgres as postgres");
        assertThat(c.archive().core().retention().spec()).as("binary units, as nwaku's").isEqualTo("size:1073741824");
        assertThat(warnings).as("only nwaku's own notice that cluster 1 will need --preset=twn")
                .singleElement().asString().startsWith("TWN - The Waku Network configuration");
    }
}
