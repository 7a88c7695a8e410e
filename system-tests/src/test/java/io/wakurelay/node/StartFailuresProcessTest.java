package io.wakurelay.node;

import io.wakurelay.testkit.Anvil;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A node process that cannot start says what to change in one line and exits, with no Java stack trace: the REST or
 * metrics port in use (before the peer port ever opens), an unwritable data directory, a PostgreSQL that refuses
 * the connection (at once with {@code --store-message-db-start-wait=0}), a bad value from the environment; and The Waku
 * Network's preset (discv5 off) without an eth client, with one on another chain (anvil's own) and with no contract at
 * the preset's address (anvil on chain 59141, nothing placed there).
 */
@Tag("process")
class StartFailuresProcessTest {
    @TempDir
    Path dir;

    /** The exit code and the output of a node process run to its end (it must end within a minute). */
    private record Ended(int code, List<String> lines, long millis) {
        /** The lines a stack trace would print: frames, "Caused by", an exception class at the start of a line. */
        List<String> stackLines() {
            return lines.stream().filter(l -> l.matches("\\s+at .*|Caused by: .*|\\s*\\.\\.\\. \\d+ more|"
                    + "^[a-z]+(\\.[a-zA-Z0-9_$]+)+(Exception|Error)(: .*)?")).toList();
        }

        String text() {
            return String.join("\n", lines);
        }
    }

    private Ended run(Map<String, String> env, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-cp", System.getProperty("java.class.path"), NodeMain.class.getName()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().keySet().removeIf(k -> k.startsWith("WAKURELAY_") || k.startsWith("WAKUNODE2_"));
        builder.environment().putAll(env);
        long start = System.nanoTime();
        Process process = builder.start();
        process.getOutputStream().close();
        byte[] output = process.getInputStream().readAllBytes();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            throw new AssertionError("the node did not end:\n" + new String(output, StandardCharsets.UTF_8));
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        return new Ended(process.exitValue(), new String(output, StandardCharsets.UTF_8).lines().toList(), millis);
    }

    private List<String> local(String... extra) {
        return local(dir.resolve("data"), extra);
    }

    /** A node on loopback, any free ports but those {@code extra} gives. */
    private static List<String> local(Path data, String... extra) {
        List<String> args = new ArrayList<>(List.of("--data-dir", data.toString(), "--listen-address", "127.0.0.1"));
        for (String port : List.of("--tcp-port", "--rest-port", "--metrics-server-port")) {
            if (!List.of(extra).contains(port)) {
                args.addAll(List.of(port, "0"));
            }
        }
        args.addAll(List.of(extra));
        return args;
    }

    private static void assertOneLineNaming(Ended ended, int code, String... mentions) {
        assertThat(ended.code()).as(ended.text()).isEqualTo(code);
        assertThat(ended.stackLines()).as(ended.text()).isEmpty();
        List<String> failures = ended.lines().stream().filter(l -> l.contains("node failed to start")
                || l.startsWith("wakurelay-node: ")).toList();
        assertThat(failures).as(ended.text()).singleElement().asString().contains(mentions);
    }

    @Test
    void aRestPortInUseIsOneLineNamingRestPortAndThePeerPortNeverOpens() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Ended ended = run(Map.of(), local("--rest-address", "127.0.0.1", "--rest-port",
                    String.valueOf(taken.getLocalPort())).toArray(String[]::new));
            assertOneLineNaming(ended, NodeMain.EXIT_START, "cannot listen on 127.0.0.1:" + taken.getLocalPort() + " (REST)",
                    "--rest-port");
            assertThat(ended.text()).as("the p2p host never started").doesNotContain("p2p host");
        }
    }

    @Test
    void aMetricsPortInUseIsOneLineNamingMetricsServerPort() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Ended ended = run(Map.of(), local("--metrics-server-port", String.valueOf(taken.getLocalPort()))
                    .toArray(String[]::new));
            assertOneLineNaming(ended, NodeMain.EXIT_START, "(metrics)", "--metrics-server-port");
            assertThat(ended.text()).doesNotContain("p2p host");
        }
    }

    @Test
    void aPostgresThatRefusesTheConnectionFailsAtOnceWithStartWaitZero() throws Exception {
        int closed;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = probe.getLocalPort();
        }
        Ended ended = run(Map.of("WAKURELAY_STORE_MESSAGE_DB_PASSWORD", "secret"), local("--store-message-db-url",
                "postgres://waku@127.0.0.1:" + closed + "/waku", "--store-message-db-start-wait=0",
                "--store-message-db-connect-timeout=120s").toArray(String[]::new));
        assertOneLineNaming(ended, NodeMain.EXIT_START, "cannot reach the PostgreSQL database at 127.0.0.1:" + closed,
                "--store-message-db-url");
        assertThat(ended.text()).doesNotContain("secret");
        // a JVM's start and the node's first steps (seconds, more on a loaded machine), far from the 120 s the pool
        // would have waited for a connection
        assertThat(ended.millis()).as("not after the 120 s connect timeout").isLessThan(60_000);
    }

    @Test
    void anUnwritableDataDirStopsTheStartNamingDataDir() throws Exception {
        Path readOnly = Files.createDirectory(dir.resolve("ro"));
        assumeTrue(mount("mount", "-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", readOnly.toString()),
                "cannot mount a read-only tmpfs here (needs root)");
        try {
            Ended ended = run(Map.of(), local(readOnly.resolve("data")).toArray(String[]::new));
            assertOneLineNaming(ended, NodeMain.EXIT_CONFIG, "--data-dir: cannot write in " + readOnly,
                    "read-only file system");
        } finally {
            mount("umount", readOnly.toString());
        }
    }

    @Test
    void aBadValueFromAnNwakuVariableSaysWhichVariable() throws Exception {
        Ended ended = run(Map.of("WAKUNODE2_MAX_CONNECTIONS", "many"), local().toArray(String[]::new));
        assertOneLineNaming(ended, NodeMain.EXIT_CONFIG, "--max-connections",
                "from environment variable WAKUNODE2_MAX_CONNECTIONS");
    }

    @Test
    void theWakuNetworkWithoutAnEthClientIsOneLineNamingTheEthClientFlag() throws Exception {
        Ended ended = run(Map.of(), local("--cluster-id=1", "--discv5-discovery=false").toArray(String[]::new));
        assertOneLineNaming(ended, NodeMain.EXIT_CONFIG, "--rln-relay-eth-client-address");
    }

    @Test
    void anEthClientOnAnotherChainThanTheWakuNetworksIsOneLineNamingTheChainIdFlag() throws Exception {
        try (Anvil chain = Anvil.start(Anvil.ANVIL_CHAIN_ID)) {
            Ended ended = run(Map.of(), local("--cluster-id=1", "--discv5-discovery=false",
                    "--rln-relay-eth-client-address=" + chain.rpcUri()).toArray(String[]::new));
            assertOneLineNaming(ended, NodeMain.EXIT_START, "--rln-relay-chain-id is 59141 but the eth client at "
                    + chain.rpcUri() + " is on chain 31337");
        }
    }

    @Test
    void noContractAtTheWakuNetworksAddressIsOneLineNamingTheContractFlag() throws Exception {
        try (Anvil chain = Anvil.start(Anvil.TWN_CHAIN_ID)) {
            Ended ended = run(Map.of(), local("--cluster-id=1", "--discv5-discovery=false",
                    "--rln-relay-eth-client-address=" + chain.rpcUri()).toArray(String[]::new));
            assertOneLineNaming(ended, NodeMain.EXIT_START, "--rln-relay-eth-contract-address");
        }
    }

    private static boolean mount(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
    }
}
