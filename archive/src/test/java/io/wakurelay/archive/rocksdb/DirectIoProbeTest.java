package io.wakurelay.archive.rocksdb;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

class DirectIoProbeTest {

    @Test
    void aLocalDiskTakesDirectIoAndTheProbeLeavesNothingBehind(@TempDir Path dir) throws Exception {
        assumeThat(System.getProperty("os.name")).as("O_DIRECT as Linux has it").isEqualTo("Linux");
        assumeThat(Files.getFileStore(dir).type()).as("a disk file system").isIn("ext4", "xfs", "btrfs");

        assertThat(DirectIoProbe.supported(dir)).isTrue();
        try (var files = Files.list(dir)) {
            assertThat(files).isEmpty();
        }
    }

    @Test
    void aDirectoryThatCannotBeWrittenIsNotDirectIo(@TempDir Path dir) {
        assertThat(DirectIoProbe.supported(dir.resolve("missing"))).isFalse();
    }
}
