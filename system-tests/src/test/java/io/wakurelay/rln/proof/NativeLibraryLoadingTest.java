package io.wakurelay.rln.proof;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * zwaves' native library is loaded only when the Groth16 backend is created, and where it cannot load the error names
 * the platform. Each case runs {@link NativeLibraryProbe} in a JVM of its own (a library, once loaded, stays loaded).
 */
@Tag("process")
@EnabledOnOs(OS.LINUX) // the probe reads /proc/self/maps
class NativeLibraryLoadingTest {

    private record Run(int exitCode, String output) {
    }

    private static Run probe(String mode, String... jvmOptions) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of(jvmOptions));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), NativeLibraryProbe.class.getName(), mode));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getOutputStream().close();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("the probe did not end within 60 s");
        }
        return new Run(process.exitValue(), new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    @Test
    void everythingButTheBackendLeavesTheLibraryUnloaded() throws Exception {
        Run off = probe("off");
        assertThat(off.output()).contains("zwaves_jni mapped: false");
        assertThat(off.exitCode()).isZero();
        Run on = probe("on");
        assertThat(on.output()).as("the probe sees a loaded library").contains("zwaves_jni mapped: true");
    }

    @Test
    void whereTheLibraryDoesNotLoadTheErrorNamesThePlatform() throws Exception {
        Run run = probe("on", "-Dos.arch=sparcv9");
        assertThat(run.exitCode()).as(run.output()).isEqualTo(3);
        assertThat(run.output()).contains("unavailable: RLN needs zwaves' native Groth16 library, which does not load on "
                + "linux/sparcv9", "linux/amd64");
    }
}
