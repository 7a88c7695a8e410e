package io.wakurelay.archive.rocksdb;

import io.wakurelay.archive.Durability;
import io.wakurelay.archive.StoreQuery;
import io.wakurelay.protocol.MessageHash;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real process, killed with SIGKILL while it writes: every message of every batch it had acknowledged
 * (printed) is in the archive after reopening, and the persisted counters agree with the data (nothing is half
 * there: a message without its index entries or counters). With {@link Durability#WAL} an acknowledged batch has
 * reached the OS (the WAL write returned), which a killed process cannot lose; with {@link Durability#FLUSH} it is in
 * SST files a completed atomic flush wrote, while the batches written after it, in memtables only, are lost whole.
 */
@Tag("process")
class KillDurabilityTest {
    private static final int ACKNOWLEDGED_BEFORE_KILL = 3_000;
    private static final String PREFIX = "C 0x";
    /** {@code C 0x<64 hex>\n} */
    private static final int LINE_BYTES = PREFIX.length() + 64 + 1;

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = Durability.class, names = {"WAL", "FLUSH"})
    void everyAcknowledgedMessageSurvivesAKill9(Durability durability) throws Exception {
        Path archiveDir = dir.resolve("archive");
        Path printed = dir.resolve("child-stdout.txt");
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-Dio.netty.leakDetection.level=disabled", "-Dlogback.configurationFile=logback-child.xml",
                "-cp", classpath, ArchiveWriterProcess.class.getName(), archiveDir.toString(), durability.label())
                .redirectOutput(printed.toFile())
                .redirectError(dir.resolve("child-stderr.txt").toFile())
                .start();
        List<MessageHash> acknowledged;
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            while (Files.size(printed) < (long) ACKNOWLEDGED_BEFORE_KILL * LINE_BYTES) {
                assertThat(child.isAlive()).as("the child is writing (see child-stderr.txt)").isTrue();
                assertThat(System.nanoTime()).as("the child acknowledges in time").isLessThan(deadline);
                Thread.sleep(5);
            }
            child.destroyForcibly();
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(child.exitValue()).as("killed by SIGKILL").isEqualTo(128 + 9);
        } finally {
            child.destroyForcibly();
        }
        // everything it printed before it died was acknowledged; a cut-off last line was not fully printed
        acknowledged = Files.readAllLines(printed, StandardCharsets.US_ASCII).stream()
                .filter(line -> line.startsWith(PREFIX) && line.length() == LINE_BYTES - 1)
                .map(line -> MessageHash.parse(line.substring(2)))
                .toList();
        assertThat(acknowledged).hasSizeGreaterThanOrEqualTo(ACKNOWLEDGED_BEFORE_KILL);

        try (RocksArchive reopened = RocksFixture.open(archiveDir)) {
            int found = 0;
            for (int i = 0; i < acknowledged.size(); i += StoreQuery.MAX_HASHES) {
                List<MessageHash> chunk = acknowledged.subList(i, Math.min(acknowledged.size(), i + StoreQuery.MAX_HASHES));
                found += reopened.query(StoreQuery.builder().hashes(chunk).pageSize(100).build()).messages().size();
            }
            assertThat(found).as("acknowledged messages found after kill -9").isEqualTo(acknowledged.size());
            assertThat(reopened.messageCount()).isGreaterThanOrEqualTo(acknowledged.size());
            ArchiveInspector.assertConsistent(reopened, reopened.messageCount());
        }
    }
}
