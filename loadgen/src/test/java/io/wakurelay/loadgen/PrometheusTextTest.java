package io.wakurelay.loadgen;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class PrometheusTextTest {
    private static final String EXPOSITION = """
            # HELP jvm_memory_used_bytes The amount of used memory
            # TYPE jvm_memory_used_bytes gauge
            jvm_memory_used_bytes{id="G1 Eden Space",area="heap"} 1000.0
            jvm_memory_used_bytes{area="heap",id="G1 Old Gen"} 2000.0
            jvm_memory_used_bytes{area="nonheap",id="Metaspace"} 500.0
            jvm_memory_used_bytes_total 7.0
            waku_relay_messages_invalid_total{reason="a \\"quoted\\", comma",verdict="reject"} 3.0 1712345678000
            waku_relay_propagation_seconds_bucket{le="+Inf"} 5.0
            waku_netty_direct_memory_used_bytes -1.0
            """;

    @Test
    void samplesAreMatchedByNameAndByLabelsInAnyOrder() {
        assertThat(PrometheusText.sum(EXPOSITION, "jvm_memory_used_bytes", Map.of("area", "heap"))).isEqualTo(3000.0);
        assertThat(PrometheusText.sum(EXPOSITION, "jvm_memory_used_bytes", Map.of())).isEqualTo(3500.0);
        assertThat(PrometheusText.sum(EXPOSITION, "jvm_memory_used_bytes", Map.of("id", "G1 Old Gen", "area", "heap"))).isEqualTo(2000.0);
        assertThat(PrometheusText.sum(EXPOSITION, "jvm_memory_used", Map.of())).as("a prefix is not a name").isZero();
    }

    @Test
    void escapedLabelValuesTimestampsAndSpecialValuesAreRead() {
        assertThat(PrometheusText.sum(EXPOSITION, "waku_relay_messages_invalid_total", Map.of("reason", "a \"quoted\", comma")))
                .isEqualTo(3.0);
        assertThat(PrometheusText.parse(EXPOSITION)).hasSize(7);
        assertThat(PrometheusText.sum(EXPOSITION, "waku_relay_propagation_seconds_bucket", Map.of("le", "+Inf"))).isEqualTo(5.0);
        assertThat(RemoteMetrics.sum(EXPOSITION, "waku_netty_direct_memory_used_bytes")).isEqualTo(-1.0);
    }
}
