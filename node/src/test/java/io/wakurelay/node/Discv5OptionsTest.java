package io.wakurelay.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.wakurelay.discovery.discv5.Discv5DiscoveryConfig;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** nwaku's discv5 tuning options: --discv5-enr-auto-update, the IP limits and --discv5-bits-per-hop. */
class Discv5OptionsTest {

    @TempDir
    Path dir;

    private Discv5DiscoveryConfig parse(String... args) {
        String[] all = new String[args.length + 2];
        all[0] = "--data-dir";
        all[1] = dir.toString();
        System.arraycopy(args, 0, all, 2, args.length);
        return NodeMain.parse(all, Map.of()).discovery().discv5();
    }

    @Test
    void nwakusDefaults() {
        Discv5DiscoveryConfig discv5 = parse();
        assertThat(discv5.enrAutoUpdate()).isFalse();
        assertThat(discv5.tableIpLimit()).isEqualTo(10);
        assertThat(discv5.bucketIpLimit()).isEqualTo(2);
        assertThat(discv5.bitsPerHop()).isEqualTo(1);
    }

    @Test
    void theOptionsAreTaken() {
        Discv5DiscoveryConfig discv5 = parse("--discv5-discovery", "--discv5-enr-auto-update", "--discv5-table-ip-limit",
                "20", "--discv5-bucket-ip-limit", "4", "--discv5-bits-per-hop", "5");
        assertThat(discv5.enrAutoUpdate()).isTrue();
        assertThat(discv5.tableIpLimit()).isEqualTo(20);
        assertThat(discv5.bucketIpLimit()).isEqualTo(4);
        assertThat(discv5.bitsPerHop()).isEqualTo(5);
        assertThat(parse("--discv5-enr-auto-update=false").enrAutoUpdate()).isFalse();
    }

    @Test
    void refusesLimitsBelowOneAndBitsPerHopOutOfRange() {
        assertThatThrownBy(() -> parse("--discv5-table-ip-limit", "0")).hasMessageContaining("--discv5-table-ip-limit");
        assertThatThrownBy(() -> parse("--discv5-bucket-ip-limit", "0"))
                .hasMessageContaining("--discv5-bucket-ip-limit");
        assertThatThrownBy(() -> parse("--discv5-bits-per-hop", "0")).hasMessageContaining("--discv5-bits-per-hop");
        assertThatThrownBy(() -> parse("--discv5-bits-per-hop", "6")).hasMessageContaining("--discv5-bits-per-hop");
    }
}
