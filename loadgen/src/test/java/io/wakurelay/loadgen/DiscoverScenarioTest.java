package io.wakurelay.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CI size of the {@code discover} run (docs/benchmarks.md has the 20-node one): six nodes in this JVM, five of
 * them given only the first one's ENR as their discv5 bootstrap node, find every other node, form meshes of gossipsub's
 * D_low and deliver every message published through any of them to all six.
 */
@Tag("slow")
class DiscoverScenarioTest {
    @TempDir
    Path dir;

    @Test
    void sixNodesGivenOneBootstrapEnrFindEachOtherAndEveryMessageReachesAll() throws Exception {
        Path json = dir.resolve("discover.json");
        Path html = dir.resolve("discover.html");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        // lookups every second rather than nwaku's 5 s, so that a node that missed the others at its first lookup
        // (they were not started yet) finds them soon
        int code = LoadgenMain.run(new String[] {"discover", "--nodes", "6", "--lookup-interval", "1s",
                "--timeout", "60s", "-n", "20", "--rate", "20", "--work-dir", dir.resolve("w").toString(),
                "--json", json.toString(), "--html", html.toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));

        assertThat(code).as("exit code; stderr: %s", err.toString(StandardCharsets.UTF_8)).isZero();
        String[] lines = out.toString(StandardCharsets.UTF_8).trim().split("\n");
        assertThat(lines).hasSize(2);
        assertThat(lines[0]).isEqualTo(ResultRow.CSV_HEADER);
        assertThat(lines[1]).startsWith("discover,20,");
        // the six nodes' counters summed, per node and message: each hashes it once, the five that receive it decode it
        // once (its publisher encodes it), none copies its payload; no column is NaN, and the last says nothing was lost
        String[] columns = lines[1].split(",");
        assertThat(lines[1]).doesNotContain("NaN").endsWith(",0");
        assertThat(columns[6]).isEqualTo("0.833");
        assertThat(columns[7]).isEqualTo("1.000");
        assertThat(columns[8]).isEqualTo("0.000");
        @SuppressWarnings("unchecked")
        Map<String, Object> row =
                ((List<Map<String, Object>>) new ObjectMapper().readValue(json.toFile(), List.class)).get(0);
        assertThat(row).containsEntry("nodes", 6).containsEntry("missing", 0).containsEntry("lookup_interval_ms", 1000)
                .containsEntry("delivered", 120).containsEntry("expected", 120).containsEntry("delivery_ratio", 1.0)
                .containsEntry("mesh_target", 4);
        // every node ended connected to the five others as relay peers, each found by discv5 alone
        assertThat(row).containsEntry("relay_peers_min", 5);
        assertThat((Integer) row.get("mesh_min")).isGreaterThanOrEqualTo(4);
        for (String milestone : DiscoverRun.MILESTONES) {
            assertThat(((Number) row.get(milestone)).longValue()).as(milestone).isBetween(0L, 60_000L);
        }
        assertThat(Files.readString(html))
                .contains("lookup_interval_ms", "all_found_all_ms", "latency histogram (20 messages)");
    }
}
