package io.wakurelay.loadgen;

import io.wakurelay.protocol.PayloadMix;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

class HtmlReportTest {
    @TempDir
    Path dir;

    private static ResultRow row(String scenario, double msgPerS, long[] latencies) {
        return new ResultRow(scenario, latencies.length, 1000, msgPerS, 2_000_000, 9_000_000, 1, 1, 0, 100, 200, 3000, 4,
                50, 2_500_000, 10, 0, Map.of(), latencies, Timeline.Series.EMPTY);
    }

    @Test
    void aReportSaysWhatTheRunWasItsUnitsAndNwakusFigureBesideOursWithACumulativeLatencyPlotAndNoScript() throws Exception {
        long[] latencies = LongStream.rangeClosed(1, 1000).map(i -> i * 10_000).toArray();
        Path file = dir.resolve("report.html");
        Workload workload = new Workload(42, PayloadMix.parse(PayloadMix.DEFAULT_SPEC), 1000, 100, Workload.DEFAULT_PUBSUB_TOPIC,
                Workload.DEFAULT_CONTENT_TOPIC);

        HtmlReport.write(file, List.of(row("micro", 4547.4, latencies)), RunFacts.of(workload));

        String html = Files.readString(file);
        assertThat(html).contains("<th>JDK</th>", "<th>CPU</th>", "<th>commit</th>", "<th>seed</th><td>42</td>",
                "<th>mix</th><td>" + PayloadMix.DEFAULT_SPEC, "Units: *_ns nanoseconds");
        assertThat(html).contains("nwaku's published micro figure: 2273.7 msg/s", "this run: 4547.4 msg/s, 2.00 × nwaku's");
        assertThat(html).contains("<polyline", "p50 5.00 ms", "p99 9.90 ms");
        assertThat(html).doesNotContain("<script", "src=\"http");
    }

    @Test
    void aScenarioNwakuDidNotPublishGetsNoComparisonAndAFixedSizeRunNoSeed() throws Exception {
        Path file = dir.resolve("lat.html");
        HtmlReport.write(file, List.of(row("lat", 100, new long[]{1000, 2000})), RunFacts.of(null));

        String html = Files.readString(file);
        assertThat(html).doesNotContain("nwaku's published", "<th>seed</th>");
        assertThat(html).contains("<th>JDK</th>");
    }

    @Test
    void aRowWithATimelineGetsItsThroughputOverTimeAndItsHeapAgainstMessagesWithEachCollectionMarked() throws Exception {
        int n = 20;
        long[] nanos = new long[n];
        long[] done = new long[n];
        long[] heap = new long[n];
        long[] gcs = new long[n];
        for (int i = 0; i < n; i++) {
            nanos[i] = i * 100_000_000L;
            done[i] = i * 100L;
            heap[i] = (64L + i % 5 * 16) << 20;
            gcs[i] = i / 5;
        }
        ResultRow row = new ResultRow("micro", 1900, 1900, 1000, 0, 0, 1, 1, 0, 100, 200, 3000, 3, 50, 0, 10, 0, Map.of(),
                new long[0], new Timeline.Series(nanos, done, heap, gcs));
        Path file = dir.resolve("timeline.html");

        HtmlReport.write(file, List.of(row), RunFacts.of(null));

        String html = Files.readString(file);
        assertThat(html).contains("throughput over time", "mean 1000 msg/s", "heap in use in this JVM",
                "128 MiB; 3 collection(s)", "<title>1 collection(s)</title>");
        assertThat(html).doesNotContain("<script");
    }
}
