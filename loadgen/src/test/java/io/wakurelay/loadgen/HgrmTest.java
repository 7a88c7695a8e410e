package io.wakurelay.loadgen;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class HgrmTest {
    @TempDir
    Path dir;

    @Test
    void theDistributionHoldsEverySampleInMicroseconds() throws Exception {
        long[] nanos = new long[1000];
        for (int i = 0; i < nanos.length; i++) {
            nanos[i] = (i + 1) * 1_000L; // 1 µs .. 1,000 µs
        }
        Path file = Hgrm.besides(dir.resolve("micro.html"));

        Hgrm.write(file, nanos);

        assertThat(file.getFileName().toString()).isEqualTo("micro.hgrm");
        String text = Files.readString(file);
        assertThat(text).contains("Value     Percentile TotalCount 1/(1-Percentile)", "#[Max     =     1000.447", "Total count    =         1000]");
        assertThat(Hgrm.histogram(nanos).getValueAtPercentile(50)).isBetween(499_000L, 501_000L);
    }

    @Test
    void latenciesKeepEverySampleBeyondTheExpectedCount() {
        Latencies latencies = new Latencies(2);
        for (int i = 0; i < 100; i++) {
            latencies.add(i);
        }
        assertThat(latencies.size()).isEqualTo(100);
        assertThat(latencies.sorted()).hasSize(100).endsWith(99);
    }
}
