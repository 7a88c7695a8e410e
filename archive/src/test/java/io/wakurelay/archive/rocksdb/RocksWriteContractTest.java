package io.wakurelay.archive.rocksdb;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.archive.CoreConfigBuilder;
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
    protected MessageArchive open(UnaryOperator<CoreConfigBuilder> tune) {
        return RocksArchive.open(RocksFixture.config(dir.resolve("a" + opened++)).withCore(tune), new SimpleMeterRegistry());
    }

    @Override
    protected long count(MessageArchive archive) {
        return archive.messageCount();
    }
}
