package io.wakurelay.archive.rocksdb;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.archive.MessageArchive;
import io.wakurelay.archive.RetentionPolicy;
import io.wakurelay.archive.contract.RetentionContract;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

class RocksRetentionContractTest extends RetentionContract {
    @TempDir
    Path dir;

    @Override
    protected MessageArchive open(RetentionPolicy policy) {
        return RocksArchive.open(RocksFixture.config(dir).withCore(c -> c.retention(policy)), new SimpleMeterRegistry());
    }

    @Override
    protected long count(MessageArchive archive) {
        return archive.messageCount();
    }
}
