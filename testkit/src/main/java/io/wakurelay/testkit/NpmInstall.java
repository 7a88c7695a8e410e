package io.wakurelay.testkit;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@code interop/install.sh} (npm ci from the lockfiles, skipped where the stamps match) once per JVM, before
 * the first JavaScript peer starts. A failure is remembered: every later peer fails with the same message.
 */
final class NpmInstall {

    /** npm ci of the interop projects takes about a minute on a cold cache; a stuck registry must not hang the build. */
    private static final long TIMEOUT_MINUTES = 10;

    private static Path installedDir;
    private static String failure;

    private NpmInstall() {
    }

    static synchronized void ensureInstalled(Path interopDir, Path logDir) {
        if (failure != null) {
            fail(failure);
        }
        if (interopDir.equals(installedDir)) {
            return;
        }
        Path log = logDir.resolve("install.log");
        try {
            Files.createDirectories(logDir);
            Process process = new ProcessBuilder("bash", interopDir.resolve("install.sh").toString())
                    .directory(interopDir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(nullDevice()))
                    .start();
            if (!process.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                failure = "interop/install.sh did not finish within " + TIMEOUT_MINUTES + " minutes; see " + log
                        + "\n" + LogTail.of(log);
            } else if (process.exitValue() != 0) {
                failure = "interop/install.sh (npm ci of the JavaScript interop peers) failed with exit code "
                        + process.exitValue() + "; see " + log + "\n" + LogTail.of(log);
            } else {
                installedDir = interopDir;
                return;
            }
        } catch (IOException e) {
            failure = "cannot run interop/install.sh (is bash on the PATH?): " + e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            fail("interrupted while interop/install.sh ran");
        }
        fail(failure);
    }

    private static File nullDevice() {
        return new File(System.getProperty("os.name").startsWith("Windows") ? "NUL" : "/dev/null");
    }
}
