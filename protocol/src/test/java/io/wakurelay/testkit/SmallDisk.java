package io.wakurelay.testkit;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A real, small file system for disk-full tests: a tmpfs of a given size mounted under a test's directory, so that
 * writes fail with ENOSPC as they would on a full disk. Mounting needs permission (root, as CI runs); elsewhere the
 * test that asks for one is skipped.
 */
public final class SmallDisk implements AutoCloseable {
    private final Path root;

    private SmallDisk(Path root) {
        this.root = root;
    }

    /** Mounts a tmpfs of {@code size} (as mount takes it, e.g. {@code 64m}) at {@code dir/small-disk}, or skips the test. */
    public static SmallDisk mountOrSkip(Path dir, String size) throws IOException, InterruptedException {
        Path root = dir.resolve("small-disk");
        Files.createDirectories(root);
        assumeTrue(run("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", root.toString()), "cannot mount a tmpfs here (needs root)");
        return new SmallDisk(root);
    }

    public Path root() {
        return root;
    }

    /** Writes a file at {@code root/name} until the disk is full; delete it to give the space back. */
    public Path fill(String name) {
        Path filler = root.resolve(name);
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

    @Override
    public void close() throws IOException, InterruptedException {
        run("umount", "-l", root.toString());
    }

    private static boolean run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        return process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0;
    }
}
