package io.wakurelay.archive.rocksdb;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.archive.RocksConfig;
import io.wakurelay.archive.Durability;
import io.wakurelay.archive.EnvelopeSource;
import io.wakurelay.protocol.MessageHash;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The child process of {@code KillDurabilityTest} (system-tests): archives an endless stream and prints {@code C <hash>}
 * for every message of every acknowledged batch, right when the acknowledgement arrives. Arguments: the archive
 * directory and the {@link Durability} label. Not a test.
 */
public final class ArchiveWriterProcess {
    private ArchiveWriterProcess() {
    }

    public static void main(String[] args) {
        Path dir = Path.of(args[0]);
        PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false);
        RocksConfig config = RocksFixture.config(dir).toBuilder().durability(Durability.parse(args[1])).build()
                .withCore(c -> c.maxBatchMessages(32).maxBatchDelay(Duration.ofMillis(1)).maxPendingMessages(128));
        RocksArchive archive = RocksArchive.open(config, new SimpleMeterRegistry());
        archive.write(new EnvelopeSource(2_000).flux())
                .doOnNext(batch -> {
                    StringBuilder lines = new StringBuilder();
                    for (MessageHash hash : batch.stored()) {
                        lines.append("C ").append(hash.toHex()).append('\n');
                    }
                    out.print(lines);
                    out.flush();
                })
                .blockLast();
    }
}
