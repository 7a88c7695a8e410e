package io.wakurelay.loadgen;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The CSV row is a contract: DESIGN.md's columns in their order, new ones only after them. */
class ResultRowTest {
    /** DESIGN.md's "Load generator" row. */
    private static final String DESIGN_COLUMNS = "scenario,count,elapsed_ms,msg_per_s,p50_ns,p99_ns,decodes_per_msg,hashes_per_msg,"
            + "copies_per_msg,peak_heap_mb,peak_rss_mb,alloc_bytes_per_msg,gc_count";

    private static ResultRow row(long missing) {
        return new ResultRow("drive", 40, 1000, 40, 2_000_000, 9_000_000, 1, 1, 0, 100, 200, 3000, 4,
                50, 2_500_000, 10, missing, Map.of(), new long[0], Timeline.Series.EMPTY);
    }

    @Test
    void theHeaderKeepsDesignsColumnsFirstAndAddsMissingAtTheEnd() {
        assertThat(ResultRow.CSV_HEADER).startsWith(DESIGN_COLUMNS + ",").endsWith(",missing");
    }

    @Test
    void aRowHasAFieldPerColumnAndTheMissingMessagesLast() {
        String[] columns = ResultRow.CSV_HEADER.split(",");
        String[] lost = row(3).csv().split(",");
        assertThat(lost).hasSameSizeAs(columns);
        assertThat(lost[lost.length - 1]).isEqualTo("3");
        assertThat(row(0).csv()).endsWith(",4,0");
        assertThat(row(0).json()).containsEntry("missing", 0L);
    }

    @Test
    void aRunThatLostMessagesSaysHowManyInItsRowAndExitsWithTheLossCode() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream before = LoadgenMain.Sink.out;
        LoadgenMain.Sink.out = new PrintStream(out, true, StandardCharsets.UTF_8);
        try {
            assertThat(new OutputOptions().report(row(3))).isEqualTo(LoadgenMain.EXIT_LOSS);
            assertThat(new OutputOptions().report(row(0))).isZero();
        } finally {
            LoadgenMain.Sink.out = before;
        }
        assertThat(out.toString(StandardCharsets.UTF_8).lines().toList()).containsExactly(ResultRow.CSV_HEADER, row(3).csv(),
                ResultRow.CSV_HEADER, row(0).csv());
        assertThat(row(3).csv()).endsWith(",3");
    }
}
