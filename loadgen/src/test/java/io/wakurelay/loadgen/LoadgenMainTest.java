package io.wakurelay.loadgen;

import io.wakurelay.archive.StoreQuery;
import io.wakurelay.discovery.discv5.Discv5DiscoveryConfig;
import io.wakurelay.node.config.DurationText;
import io.wakurelay.node.config.NodeConfig;
import io.wakurelay.node.config.NodeVersion;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The command line as a script meets it: version, help, usage errors, and defaults that are the node's own. */
class LoadgenMainTest {
    private static final List<String> SCENARIOS = List.of("micro", "macro", "fanout", "mesh", "discover", "lat", "thr", "drive", "query");

    private record Run(int code, String out, String err) {
    }

    private static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = LoadgenMain.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void versionPrintsTheNodesVersionAndExitsZero() {
        for (String flag : List.of("--version", "-V")) {
            Run r = run(flag);
            assertThat(r.code()).isZero();
            assertThat(r.out().trim()).isEqualTo("wakurelay-loadgen " + NodeVersion.VERSION);
        }
        assertThat(run("drive", "--version").out().trim()).as("every scenario has it too").isEqualTo("wakurelay-loadgen " + NodeVersion.VERSION);
    }

    @Test
    void theHelpNamesAllNineScenariosInItsDescriptionAndItsCommandList() {
        Run r = run("--help");
        assertThat(r.code()).isZero();
        String description = r.out().lines().skip(1).takeWhile(l -> !l.isBlank() && !l.startsWith("  -")).reduce("", (a, b) -> a + " " + b.trim());
        assertThat(description).contains("micro, macro, fanout, mesh, discover, lat, thr, drive and query");
        for (String scenario : SCENARIOS) {
            assertThat(r.out()).containsPattern("(?m)^  " + scenario + " +\\S");
        }
        assertThat(new CommandLine(new LoadgenMain()).getSubcommands().keySet()).containsExactlyElementsOf(SCENARIOS);
    }

    @Test
    void withoutAScenarioTheUsageErrorNamesAllNine() {
        Run r = run();
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("name a scenario: micro, macro, fanout, mesh, discover, lat, thr, drive or query");
    }

    @Test
    void anUnknownScenarioIsAUsageError() {
        Run r = run("nope");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("nope");
    }

    private static <T> T parsed(String... args) {
        CommandLine.ParseResult result = new CommandLine(new LoadgenMain()).parseArgs(args);
        @SuppressWarnings("unchecked")
        T command = (T) result.subcommand().commandSpec().userObject();
        return command;
    }

    @Test
    void defaultsThatAreTheNodesComeFromItsConfigRecords() {
        NodeConfig node = NodeConfig.DEFAULTS;
        FanoutCommand fanout = parsed("fanout");
        assertThat(fanout.d).isEqualTo(node.relay().gossip().d());
        assertThat(fanout.workload.pubsubTopic).isEqualTo(node.relay().pubsubTopics().get(0));
        MicroCommand micro = parsed("micro");
        assertThat(micro.durability).isEqualTo(((io.wakurelay.archive.RocksConfig) node.archive()).durability().label());
        DiscoverCommand discover = parsed("discover");
        assertThat(DurationText.parse(discover.lookupInterval)).isEqualTo(Discv5DiscoveryConfig.DEFAULTS.lookupInterval());
        assertThat(discover.topic).isEqualTo(node.relay().pubsubTopics().get(0));
        QueryCommand query = parsed("query", "--rest-at", "127.0.0.1:1", "--metrics-at", "127.0.0.1:2");
        assertThat(query.pageSize).isEqualTo(StoreQuery.DEFAULT_PAGE_SIZE);
        DriveCommand drive = parsed("drive", "--publish-rest", "127.0.0.1:1", "--store-at", "127.0.0.1:2");
        assertThat(drive.metricsAt).isEqualTo(":" + node.metrics().port());
        MacroCommand macro = parsed("macro");
        assertThat(macro.storePollMillis).isEqualTo(StorePoller.DEFAULT_INTERVAL.toMillis());
        LatencyCommand lat = parsed("lat", "1", "2");
        assertThat(lat.trio.topic).isEqualTo(node.relay().pubsubTopics().get(0));
    }

    @Test
    void driveRefusesAStoreAddressWithoutAPort() {
        Run r = run("drive", "--publish-rest", "127.0.0.1:1", "--store-at", "localhost");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("--store-at is HOST:PORT, was localhost");
    }

    @Test
    void driveAgainstANodeWithoutMetricsFailsAtOnceNamingMetricsAt() {
        // port 1 on loopback: nothing listens there, and nothing is published before the metrics are read
        Run r = run("drive", "--publish-rest", "127.0.0.1:1", "--store-at", "127.0.0.1:1", "--metrics-at", ":1", "-n", "1");
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).contains("127.0.0.1:1/metrics", "--metrics-at").doesNotContain("\tat ");
        assertThat(r.out()).isEmpty();
    }
}
