package io.wakurelay.node;

import io.wakurelay.archive.CoreConfig;
import io.wakurelay.relay.RelayConfig;
import io.wakurelay.testkit.Eventually;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A publisher faster than the archive: a peer writes large messages (100 to 150 KB) to an archiving node process
 * as fast as its yamux credit allows, once with the WAL synced on every batch and once without a WAL, acknowledged
 * at flush ({@code --store-durability wal-sync} and {@code flush}). The node's disk writes are limited to 8 MiB/s
 * ({@code --store-write-rate-limit}, with 4 MiB of memtables) so that the archive, not the wire or the CPU, is the
 * slowest part on any machine. The node must hold the line with backpressure (the archive's credits, then the
 * relay's bounded hand-over queue, then the peer's stream credit) rather than memory: both queues reach their
 * limits and stay there, the publisher waits most of the time, the node stays alive under a small heap, its
 * direct memory within budget, and every message it accepted is in its store. Prints the sustained rate and the
 * peak memory. {@code -Doverload.messages=N} runs it longer, {@code -Doverload.durability=wal} (or another mode) in
 * that mode only, {@code -Doverload.rate=0} without the disk limit (docs/reliability.md has 20,000-message runs).
 */
@Tag("process")
@Tag("slow")
class ArchiveOverloadTest {
    private static final int MESSAGES = Integer.getInteger("overload.messages", 1200);
    private static final String DURABILITY = System.getProperty("overload.durability", "");
    /** The node's disk write limit; 0 lifts it (the archive is then only as slow as the machine's disk). */
    private static final String WRITE_RATE = System.getProperty("overload.rate", "8MiB");
    private static final int ARCHIVE_CREDITS = CoreConfig.DEFAULTS.maxPendingMessages();
    private static final int HAND_OVER_CAPACITY = RelayConfig.DEFAULTS.localQueueMessages();
    private static final int MIN_BYTES = 100_000;
    private static final int MAX_BYTES = 150_000;
    private static final long MIB = 1 << 20;
    private static final List<String> JVM = List.of("-Xmx192m", "-XX:+ExitOnOutOfMemoryError", "-Dio.netty.leakDetection.level=paranoid");

    @TempDir
    Path dir;

    static List<String> durabilities() {
        return DURABILITY.isEmpty() ? List.of("wal-sync", "flush") : List.of(DURABILITY);
    }

    @ParameterizedTest
    @MethodSource("durabilities")
    void aPublisherFasterThanTheArchiveIsSlowedByBackpressureAndLosesNothing(String durability) throws Exception {
        List<String> args = List.of("--data-dir", dir.resolve("data").toString(), "--listen-address", "127.0.0.1", "--tcp-port", "0",
                "--rest-port", "0", "--metrics-server-port", "0", "--store-durability", durability,
                "--store-write-rate-limit", WRITE_RATE, "--store-write-buffer-size", "4MiB", "--store-cache-size", "16MiB");
        try (NodeProcess node = NodeProcess.start(JVM, args, Duration.ofSeconds(60), dir.resolve("node.log"))) {
            Http metrics = new Http(node.metricsAddress());
            Http rest = new Http(node.restAddress());
            NodeMemory.Sample idle = NodeMemory.Sample.of(metrics.get("/metrics").body());
            long start;
            long elapsed;
            long publishing;
            Publisher publisher;
            NodeMemory.Sample peak;
            int samples;
            try (NodeMemory.Peaks peaks = new NodeMemory.Peaks(() -> metrics.get("/metrics").body(), 100)) {
                start = System.nanoTime();
                publisher = new Publisher(node.multiaddr(), "fast-publisher",
                        MESSAGES, MIN_BYTES, MAX_BYTES, 7);
                assertThat(publisher.join(300_000)).as("the publisher wrote everything within 5 minutes").isTrue();
                publishing = System.nanoTime() - start;
                assertThat(publisher.failure()).as("the connection held").isNull();
                Eventually.until("every message is archived", Duration.ofMinutes(3),
                        () -> Http.metric(metrics.get("/metrics").body(), "waku_archive_inserts_total") >= MESSAGES);
                // with --store-durability flush a written batch is acknowledged, and shown to queries, once a flush
                // wrote it; at this write rate the last flush may still be running
                Eventually.until("every written batch is acknowledged", Duration.ofMinutes(1),
                        () -> Http.metric(metrics.get("/metrics").body(), "waku_archive_unacknowledged") == 0);
                elapsed = System.nanoTime() - start;
                peak = peaks.peak();
                samples = peaks.samples();
                publisher.close();
            }
            assertThat(node.isAlive()).as("no OutOfMemoryError (the node runs with -Xmx192m and exits on OOM)").isTrue();

            String text = metrics.get("/metrics").body();
            assertThat(Http.metric(text, "waku_relay_messages_accepted_total")).as("every message accepted").isEqualTo(MESSAGES);
            assertThat(Http.metric(text, "waku_archive_inserts_total")).isEqualTo(MESSAGES);
            assertThat(ArchivedMessages.stored(rest, publisher.sent())).as("every accepted message is in the store").isEqualTo(MESSAGES);
            assertThat(peak.inboundPending()).as("the relay's hand-over queue stays within localQueueMessages + 1 per source")
                    .isLessThanOrEqualTo(HAND_OVER_CAPACITY + 2);
            assertThat(peak.archivePending()).as("the archive holds at most maxPendingMessages").isLessThanOrEqualTo(ARCHIVE_CREDITS);
            if (!WRITE_RATE.equals("0")) {
                // the overload itself: without these the bounds above were never tested
                assertThat(peak.archivePending()).as("the archive was the bottleneck: all its credits in use").isEqualTo(ARCHIVE_CREDITS);
                assertThat(peak.inboundPending()).as("then the relay's hand-over queue filled and paused the peer's stream")
                        .isGreaterThanOrEqualTo(HAND_OVER_CAPACITY);
                assertThat((double) publisher.blockedNanos() / publishing).as("the publisher spent most of its time waiting for credit")
                        .isGreaterThan(0.5);
            }
            // budget (docs/relay.md, docs/archive.md): hand-over queue 257 x 150 KiB + archive 256 x 150 KiB + one connection's
            // decoder (1 MiB + 64 KiB) = 77 MiB of frames, held in pooled chunks
            assertThat(peak.direct() - idle.direct()).as("direct memory stays within the configured budget").isLessThan(160 * MIB);
            assertThat(String.join("\n", node.output())).as("no leak reported by the node's paranoid leak detector").doesNotContain("LEAK");

            double seconds = elapsed / 1e9;
            System.out.printf("ArchiveOverloadTest: durability=" + durability + ", write rate limit " + WRITE_RATE + ": %d messages, %.1f MB of payload in %.1f s: %.0f msg/s, %.1f MB/s sustained; "
                            + "publisher blocked in writes %.0f%% of its %.1f s; idle: %s; peak: %s (%d samples)%n",
                    MESSAGES, publisher.payloadBytes() / 1e6, seconds, MESSAGES / seconds, publisher.payloadBytes() / 1e6 / seconds,
                    100.0 * publisher.blockedNanos() / publishing, publishing / 1e9, idle, peak, samples);
            System.out.println("ArchiveOverloadTest: " + grep(text, "waku_archive_insert_duration_seconds_count", "waku_archive_insert_duration_seconds_sum",
                    "waku_archive_writes_total", "waku_rocksdb_stall_seconds_total", "waku_relay_peer_disconnects_total", "jvm_gc_pause_seconds_count",
                    "jvm_gc_pause_seconds_sum"));
        }
    }

    static String grep(String exposition, String... prefixes) {
        List<String> lines = new ArrayList<>();
        for (String line : exposition.split("\n")) {
            for (String p : prefixes) {
                if (line.startsWith(p)) {
                    lines.add(line);
                }
            }
        }
        return String.join("; ", lines);
    }
}
