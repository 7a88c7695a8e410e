package io.wakurelay.testkit;

import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;

/** Finds the repository's {@code interop/} directory, which holds the JavaScript peers and their install script. */
final class InteropDirectory {

    static final String PROPERTY = "wakurelay.interop.dir";

    private InteropDirectory() {
    }

    /**
     * The directory named by the system property {@value #PROPERTY} (the build sets it), else the first
     * {@code interop/} with an {@code install.sh} found walking up from the working directory.
     */
    static Path find() {
        String configured = System.getProperty(PROPERTY);
        if (configured != null && !configured.isBlank()) {
            Path dir = Path.of(configured).toAbsolutePath().normalize();
            if (!Files.isRegularFile(dir.resolve("install.sh"))) {
                fail("-D" + PROPERTY + "=" + configured + " does not name the interop directory (no install.sh in "
                        + dir + ")");
            }
            return dir;
        }
        Path start = Path.of(System.getProperty("user.dir")).toAbsolutePath().normalize();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("interop");
            if (Files.isRegularFile(candidate.resolve("install.sh"))) {
                return candidate;
            }
        }
        return fail("no interop/install.sh above " + start + "; set -D" + PROPERTY + "=<repository>/interop");
    }
}
