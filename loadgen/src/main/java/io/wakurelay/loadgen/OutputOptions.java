package io.wakurelay.loadgen;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Where a run's rows go (the CSV on stdout, {@code --json}, {@code --html}) and where its in-process nodes keep their
 * data ({@code --work-dir}): a picocli mixin of every scenario.
 */
final class OutputOptions {
    @Option(names = "--json", paramLabel = "FILE", description = "also write the rows as JSON")
    Path json;

    @Option(names = "--html", paramLabel = "FILE", description = "also write an HTML report with a latency histogram, and beside it the distribution as HdrHistogram's .hgrm")
    Path html;

    @Option(names = "--work-dir", paramLabel = "DIR", description = "where in-process nodes keep their data, kept after the run; "
            + "must be empty or absent (default: a temporary directory, deleted after)")
    Path workDir;

    @Option(names = "--no-header", description = "print the row without the CSV header")
    boolean noHeader;

    /** The seeded mix the scenario replayed, for the report's header; null for the fixed-size scenarios. */
    private Workload workload;

    <T> T inWorkDir(Function<Path, T> body) {
        if (workDir != null) {
            return body.apply(emptyWorkDir(workDir));
        }
        Path temp;
        try {
            temp = Files.createTempDirectory("wakurelay-loadgen");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            return body.apply(temp);
        } finally {
            deleteTree(temp);
        }
    }

    OutputOptions replaying(Workload w) {
        this.workload = w;
        return this;
    }

    int report(ResultRow row) {
        return reportAll(List.of(row));
    }

    /** Rows of one invocation (mesh's IDONTWANT on and off), side by side in every output; the exit code. */
    int reportAll(List<ResultRow> rows) {
        if (!noHeader) {
            LoadgenMain.Sink.out.println(ResultRow.CSV_HEADER);
        }
        rows.forEach(row -> LoadgenMain.Sink.out.println(row.csv()));
        if (json != null) {
            try {
                new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(json.toFile(),
                        rows.stream().map(ResultRow::json).toList());
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write " + json, e);
            }
        }
        if (html != null) {
            try {
                HtmlReport.write(html, rows, RunFacts.of(workload));
                // the first row's distribution beside the report (the others' are in the report)
                Hgrm.write(Hgrm.besides(html), rows.get(0).latencies());
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write " + html, e);
            }
        }
        return rows.stream().anyMatch(row -> row.missing() > 0) ? LoadgenMain.EXIT_LOSS : 0;
    }

    /** A store left by an earlier run would be reopened and skew the figures, so a given work directory must be empty. */
    static Path emptyWorkDir(Path dir) {
        try {
            Files.createDirectories(dir);
            try (Stream<Path> entries = Files.list(dir)) {
                if (entries.findAny().isPresent()) {
                    throw new IllegalArgumentException("--work-dir " + dir + " is not empty: give an empty or new directory");
                }
            }
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot use --work-dir " + dir, e);
        }
    }

    static void deleteTree(Path root) {
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort: a temporary directory
        }
    }
}
