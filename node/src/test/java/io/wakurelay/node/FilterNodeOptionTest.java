package io.wakurelay.node;

import io.wakurelay.node.config.NodeConfig;
import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.services.filter.FilterClientConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** --filternode, nwaku's flag for the filter service node of the REST filter API. */
class FilterNodeOptionTest {
    @TempDir
    Path dir;

    private NodeConfig parse(String... args) {
        String[] all = new String[args.length + 2];
        all[0] = "--data-dir";
        all[1] = dir.toString();
        System.arraycopy(args, 0, all, 2, args.length);
        return NodeMain.parse(all, Map.of());
    }

    @Test
    void withoutItTheFilterClientHasNoServiceNodeAsNwakusEmptyDefault() {
        assertThat(parse().services().filterClient()).isEqualTo(FilterClientConfig.DEFAULTS);
        assertThat(parse("--filternode", "").services().filterClient().serviceNode()).isNull();
    }

    @Test
    void itNamesTheServiceNode() {
        PeerId other = PeerId.fromPublicKey(PrivateKey.generateSecp256k1().publicKey());
        String node = "/ip4/127.0.0.1/tcp/60001/p2p/" + other;
        assertThat(parse("--filternode", node).services().filterClient().serviceNode()).isEqualTo(Multiaddr.parse(node));
    }

    @Test
    void anAddressThatIsNotAServiceNodeIsRefusedNamingTheFlag() {
        assertThatThrownBy(() -> parse("--filternode", "/ip4/127.0.0.1/tcp/60001"))
                .hasMessageContaining("--filternode").hasMessageContaining("/p2p/");
        assertThatThrownBy(() -> parse("--filternode", "nohost")).hasMessageContaining("--filternode");
    }
}
