package io.wakurelay.archive.rocksdb;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.archive.ArchiveConfig;
import io.wakurelay.archive.ArchiveConfigBuilder;
import io.wakurelay.archive.MessageArchive;
import io.wakurelay.archive.contract.WriteContract;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.function.UnaryOperator;

class RocksWriteContractTest extends WriteContract {
    @TempDir
    Path dir;
    private int opened;

    @Override
    protected MessageArchive open(UnaryOperator<ArchiveConfigBuilder> tune) {
        return RocksArchive.open(tune.apply(RocksFixture.config(dir.resolve("a" + opened++)).toBuilder()).build(), new SimpleMeterRegistry());
    }

    @Override
    protected long count(MessageArchive archive) {
        return archive.messageCount();
    }
}
