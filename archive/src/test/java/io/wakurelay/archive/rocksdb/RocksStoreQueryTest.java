package io.wakurelay.archive.rocksdb;

import io.wakurelay.archive.MessageArchive;
import io.wakurelay.archive.contract.StoreQueryContract;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

class RocksStoreQueryTest extends StoreQueryContract {
    @TempDir
    Path dir;

    @Override
    protected MessageArchive open() {
        return RocksFixture.open(dir);
    }
}
