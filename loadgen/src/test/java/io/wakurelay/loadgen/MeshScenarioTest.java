package io.wakurelay.loadgen;

import io.wakurelay.protocol.PayloadMix;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** A smoke run of the mesh scenario with a link delay: a check of the scenario, not a benchmark. */
@Tag("slow")
class MeshScenarioTest {
    private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());

    @Test
    void withALinkDelayEveryNodeGetsEveryMessageNoSoonerThanOneHopsDelay(@TempDir Path dir) {
        Workload workload = new Workload(42, PayloadMix.parse("2000:100"), 20, 5, Workload.DEFAULT_PUBSUB_TOPIC,
                Workload.DEFAULT_CONTENT_TOPIC);
        Duration delay = Duration.ofMillis(30);

        ResultRow row = MeshScenario.run(workload, new MeshScenario.Settings(4, 2, 20, delay, 0, true), dir, QUIET);

        Map<String, Object> json = row.json();
        assertThat(row.missing()).isZero();
        // the four nodes' counters summed, per node and message: each decodes and hashes a message once, copies none
        assertThat(row.csv()).doesNotContain("NaN");
        assertThat(row.decodesPerMsg()).isEqualTo(1.0);
        assertThat(row.hashesPerMsg()).isEqualTo(1.0);
        assertThat(row.copiesPerMsg()).isZero();
        assertThat((double) json.get("delivery_ratio")).isEqualTo(1.0);
        assertThat((int) json.get("max_hops_from_publisher")).isBetween(1, 3);
        // the last of the 4 nodes is at least one link away from the node a message was handed to
        assertThat(row.p50Ns()).isGreaterThanOrEqualTo(delay.toNanos());
        assertThat(json).containsKeys("p99_goal_met", "node_cpu_us_per_msg", "generator_cpu_us_per_msg",
                "idontwant_saved_per_node_msg", "mean_hops_from_publisher");
        @SuppressWarnings("unchecked")
        Map<String, Double> byThread = (Map<String, Double>) json.get("cpu_us_per_node_msg_by_thread");
        assertThat(byThread).as("the nodes' event loops and the link proxies, by thread")
                .containsKeys("wakurelay-p2p-e", "loadgen-link-de");
    }
}
