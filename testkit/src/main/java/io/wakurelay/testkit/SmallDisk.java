package io.wakurelay.testkit;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A real, small file system for disk-full tests: a tmpfs of a given size mounted for each test, so that writes fail
 * with ENOSPC as they would on a full disk. Register it as a field,
 * {@code @RegisterExtension final SmallDisk disk = new SmallDisk("64m");}: it is mounted before each test and
 * unmounted after. Mounting needs permission (root, as CI runs); elsewhere each test is skipped.
 */
public final class SmallDisk implements BeforeEachCallback, AfterEachCallback {
    private final String size;
    private Path root;

    /** @param size as mount takes it, e.g. {@code 64m} */
    public SmallDisk(String size) {
        this.size = size;
    }

    @Override
    public void beforeEach(ExtensionContext context) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("small-disk");
        if (!run("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", dir.toString())) {
            Files.delete(dir);
            assumeTrue(false, "cannot mount a tmpfs here (needs root)");
        }
        root = dir;
    }

    /** Where the small disk is mounted (during a test). */
    public Path root() {
        if (root == null) {
            throw new IllegalStateException("the small disk is mounted only while a test runs");
        }
        return root;
    }

    /** Writes a file at {@code root/name} until the disk is full; delete it to give the space back. */
    public Path fill(String name) {
        Path filler = root().resolve(name);
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
    public void afterEach(ExtensionContext context) throws IOException, InterruptedException {
        if (root != null) {
            run("umount", "-l", root.toString());
            Files.deleteIfExists(root);
            root = null;
        }
    }

    private static boolean run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        return process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0;
    }
}
