package io.wakurelay.archive.rocksdb;

import com.sun.nio.file.ExtendedOpenOption;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Whether a directory's file system takes direct I/O ({@code O_DIRECT}), found the way RocksDB would use it: a file
 * opened for direct writing there and one aligned block written. RocksDB's flushes and compactions write with direct
 * I/O when it does (docs/adr/0077): through the page cache, the kernel's copying and write-back of 65 kB messages
 * cost the flush thread more CPU than the node's whole receive path on the virtual disk of docs/benchmarks.md; a file
 * system that refuses {@code O_DIRECT} (some overlay and network file systems) would instead fail every flush, so there
 * the page cache stays.
 */
final class DirectIoProbe {
    static final String PROBE_FILE = ".direct-io-probe";

    private DirectIoProbe() {
    }

    static boolean supported(Path dir) {
        Path probe = dir.resolve(PROBE_FILE);
        try {
            int block = (int) Math.max(4096, Files.getFileStore(dir).getBlockSize());
            ByteBuffer aligned = ByteBuffer.allocateDirect(2 * block).alignedSlice(block);
            aligned.limit(block);
            try (FileChannel channel = FileChannel.open(probe, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    ExtendedOpenOption.DIRECT)) {
                channel.write(aligned, 0);
            }
            return true;
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        } finally {
            try {
                Files.deleteIfExists(probe);
            } catch (IOException ignored) {
                // a probe file left behind is harmless: the next start writes over it
            }
        }
    }
}
