package io.wakurelay.archive;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.MessageHash;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Flux;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A real full disk: the archive lives on a 64 MiB tmpfs that a filler file fills up. RocksDB's WAL append
 * fails with ENOSPC; once the filler is deleted RocksDB clears its background error by itself (its
 * SstFileManager polls the free space) and the held batch commits. Needs permission to mount (root, as CI
 * runs); skipped elsewhere.
 */
class DiskFullRecoveryTest {
    @TempDir
    Path dir;
    private Path mount;
    private boolean mounted;

    @BeforeEach
    void mountSmallDisk() throws Exception {
        mount = dir.resolve("small-disk");
        Files.createDirectories(mount);
        mounted = run("mount", "-t", "tmpfs", "-o", "size=64m", "tmpfs", mount.toString());
        assumeTrue(mounted, "cannot mount a tmpfs here (needs root); the injected-failure test covers the logic");
    }

    @AfterEach
    void unmount() throws Exception {
        if (mounted) {
            run("umount", "-l", mount.toString());
        }
    }

    @Test
    void writesPauseWhileTheDiskIsFullAndEverythingIsStoredOnceSpaceReturns() throws Exception {
        MeterRegistry registry = new SimpleMeterRegistry();
        ArchiveConfig config = ArchiveFixture.config(mount.resolve("archive"));
        List<Envelope> envelopes = TestEnvelopes.sequence(0, 200, 20_000);
        List<MessageHash> expected = envelopes.stream().map(Envelope::hash).toList();
        try (MessageArchive archive = MessageArchive.open(config, registry)) {
            Path filler = fill(mount.resolve("filler"));
            List<CommittedBatch> acks = new CopyOnWriteArrayList<>();
            archive.write(Flux.fromIterable(envelopes)).subscribe(acks::add);

            // what fits in the WAL's preallocated space may still commit; then writes fail, and nothing is acknowledged
            Await.until("the write failed for lack of space", () -> registry.get("waku.archive.write.errors").counter().count() >= 1);
            int acknowledgedBeforeFull = acks.size();
            Await.until("another refused attempt", () -> registry.get("waku.archive.write.errors").counter().count() >= 3);
            assertThat(acks).hasSize(acknowledgedBeforeFull);
            assertThat(archive.healthy()).isFalse();
            assertThat(archive.lastWriteError()).get().asString().contains("No space left on device");

            Files.delete(filler);
            Await.until("every envelope acknowledged", Duration.ofSeconds(60),
                    () -> acks.stream().mapToInt(CommittedBatch::envelopes).sum() == envelopes.size());
            assertThat(archive.healthy()).isTrue();
            assertThat(ArchiveFixture.stored(acks)).containsExactlyElementsOf(expected);
            assertThat(envelopes).allSatisfy(e -> assertThat(e.refCnt()).isZero());
        }
        try (MessageArchive reopened = MessageArchive.open(config, new SimpleMeterRegistry())) {
            assertThat(ArchiveFixture.hashes(ArchiveFixture.allPages(reopened, StoreQuery.builder().pageSize(100).build())))
                    .containsExactlyElementsOf(expected);
            assertThat(reopened.messageCount()).isEqualTo(200);
        }
    }

    private static Path fill(Path filler) {
        try (FileChannel channel = FileChannel.open(filler, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ByteBuffer block = ByteBuffer.allocate(1 << 16);
            while (true) {
                block.clear();
                channel.write(block);
            }
        } catch (IOException full) {
            return filler;
        }
    }

    private static boolean run(String... command) throws Exception {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        return process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0;
    }
}
