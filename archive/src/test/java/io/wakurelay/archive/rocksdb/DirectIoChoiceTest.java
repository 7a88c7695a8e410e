package io.wakurelay.archive.rocksdb;

import io.wakurelay.archive.RocksConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class DirectIoChoiceTest {

    @Test
    void theArchiveWritesWithDirectIoWhereTheDiskTakesItAndNotWhenTurnedOff(@TempDir Path dir) {
        boolean diskTakesIt = DirectIoProbe.supported(dir);
        try (ArchiveDatabase on = ArchiveDatabase.open(RocksConfig.defaults(dir.resolve("on")))) {
            assertThat(on.directIo()).isEqualTo(diskTakesIt);
        }
        try (ArchiveDatabase off = ArchiveDatabase.open(RocksConfig.defaults(dir.resolve("off")).toBuilder().directIo(false).build())) {
            assertThat(off.directIo()).isFalse();
        }
    }
}
