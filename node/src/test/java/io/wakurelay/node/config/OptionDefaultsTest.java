package io.wakurelay.node.config;

import org.junit.jupiter.api.Test;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Option defaults come from the components' DEFAULTS only: none is written in an annotation. */
class OptionDefaultsTest {
    /**
     * Options that have no default: lists, the key (made in the data dir), the config file, help and version, the DNS
     * name, the TLS files, the peer exchange node, the edge service nodes, the preset and nwaku's RLN credentials.
     */
    private static final Set<String> WITHOUT_DEFAULT = Set.of("--config-file", "--nodekey", "--ext-multiaddr", "--staticnode",
            "--shard", "--pubsub-topic", "--content-topic", "--rate-limit", "--rest-allow-origin", "--rest-allow-host", "--help", "--version",
            "--store-message-db-password-file", "--dns4-domain-name", "--websocket-secure-key-path",
            "--websocket-secure-cert-path", "--peer-exchange-node", "--dns-discovery-url",
            "--dns-discovery-name-server", "--storenode", "--lightpushnode", "--filternode", "--discv5-bootstrap-node",
            "--preset", "--rln-relay-cred-path", "--rln-relay-cred-password", "--rln-relay-membership-index",
            "--rln-relay-eth-private-key");

    private static Iterable<OptionSpec> options() {
        return new CommandLine(new NodeOptions()).getCommandSpec().options();
    }

    @Test
    void noOptionCarriesADefaultOfItsOwn() {
        for (OptionSpec option : options()) {
            assertThat(option.defaultValue()).as(option.longestName()).isNull();
        }
    }

    @Test
    void everyOptionWithADefaultHasItFromTheComponentsDefaults() {
        Set<String> names = new HashSet<>();
        for (OptionSpec option : options()) {
            names.add(option.longestName());
            if (!WITHOUT_DEFAULT.contains(option.longestName())) {
                assertThat(OptionDefaults.of(option.longestName())).as(option.longestName()).isNotNull();
            }
        }
        assertThat(names).as("every built-in default belongs to an option").containsAll(OptionDefaults.all().keySet());
    }

    @Test
    void theDefaultsAreWrittenSoThatTheyParseBackToTheComponentsValues() {
        assertThat(OptionDefaults.of("--max-msg-size")).isEqualTo("150KiB");
        assertThat(ByteSize.parse(OptionDefaults.of("--relay-message-cache-size"))).isEqualTo(64L << 20);
        assertThat(DurationText.parse(OptionDefaults.of("--max-clock-drift")).toSeconds()).isEqualTo(20);
        assertThat(OptionDefaults.of("--store-message-retention-policy")).isEqualTo("time:172800");
        assertThat(ByteSize.format(1000)).isEqualTo("1000");
        assertThat(ByteSize.format(3L << 30)).isEqualTo("3GiB");
    }

    @Test
    void theEnvironmentStillBeatsTheBuiltInDefaults() {
        NodeOptions options = new NodeOptions();
        NodeOptions.commandLine(options, ConfigSources.of(Map.of("WAKURELAY_TCP_PORT", "61000"), null)).parseArgs();
        assertThat(options.host.tcpPort).isEqualTo(61000);
        assertThat(options.rest.restPort).isEqualTo(8645);
    }
}
