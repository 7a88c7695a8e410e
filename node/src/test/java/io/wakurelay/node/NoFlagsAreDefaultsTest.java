package io.wakurelay.node;

import io.wakurelay.node.config.NodeConfig;
import io.wakurelay.node.config.ServicesConfig;
import io.wakurelay.archive.RocksConfig;
import io.wakurelay.node.metrics.MetricsConfig;
import io.wakurelay.node.rest.RestConfig;
import io.wakurelay.p2p.HostConfig;
import io.wakurelay.relay.RelayConfig;
import io.wakurelay.services.store.StoreLimits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A node started with no flags runs each component with that component's own DEFAULTS: the defaults written in
 * NodeOptions' flags and the records' DEFAULTS cannot drift apart unnoticed.
 */
class NoFlagsAreDefaultsTest {
    @TempDir
    Path dir;

    @Test
    void parsingNoFlagsGivesEveryComponentsDefaults() {
        NodeConfig config = NodeMain.parse(new String[]{"--data-dir", dir.toString()}, Map.of());

        assertThat(config.relay()).isEqualTo(RelayConfig.DEFAULTS);
        assertThat(config.host()).isEqualTo(HostConfig.DEFAULTS.toBuilder().agentVersion("wakurelay/" + WakuNode.VERSION).build());
        assertThat(config.archive()).isEqualTo(RocksConfig.defaults(dir.resolve("store")));
        assertThat(config.store()).isEqualTo(StoreLimits.DEFAULTS);
        assertThat(config.services()).isEqualTo(ServicesConfig.DEFAULTS);
        assertThat(config.rest()).isEqualTo(RestConfig.DEFAULTS);
        assertThat(config.metrics()).isEqualTo(MetricsConfig.DEFAULTS);
        // and the whole: only the data dir given differs (the node key is made when the node starts)
        assertThat(config).isEqualTo(NodeConfig.DEFAULTS.inDataDir(dir).build());
    }
}
