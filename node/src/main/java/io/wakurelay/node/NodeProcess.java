package io.wakurelay.node;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import io.wakurelay.p2p.multiaddr.Multiaddr;

/**
 * A node running as a separate JVM process (for end-to-end tests and the load generator's multi-process
 * scenarios). Learns the node's actual ports from its start-up log line, so ports can be 0.
 */
public final class NodeProcess implements AutoCloseable {
    /** The start line in text; in JSON its fields of the same names are read ({@link #startedJson}). */
    private static final Pattern STARTED = Pattern.compile(
            "node started peerId=(\\S+) version=\\S+ listenAddresses=\\[([^\\]]*)\\] rest=(\\S+) metrics=(\\S+)");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process process;
    private final List<String> output;
    private final String peerId;
    private final Multiaddr multiaddr;
    private final InetSocketAddress peerAddress;
    private final InetSocketAddress restAddress;
    private final InetSocketAddress metricsAddress;

    private Thread pump;

    /** What the start line says: the peer id, the first listen address, and REST's and metrics' host:port or off. */
    private record Started(String peerId, String firstAddress, String rest, String metrics) {
    }

    private NodeProcess(Process process, List<String> output, Started started) {
        this.process = process;
        this.output = output;
        this.peerId = started.peerId();
        this.multiaddr = Multiaddr.parse(started.firstAddress());
        this.peerAddress = multiaddr.toSocketAddress();
        this.restAddress = address(started.rest());
        this.metricsAddress = address(started.metrics());
    }

    /** The start line's values, from a text line or a JSON one ({@code --log-format JSON}); null for any other line. */
    static Started started(String line) {
        if (line.startsWith("{")) {
            return startedJson(line);
        }
        Matcher m = STARTED.matcher(line);
        return m.find() ? new Started(m.group(1), m.group(2).split(", ")[0], m.group(3), m.group(4)) : null;
    }

    private static Started startedJson(String line) {
        try {
            JsonNode event = JSON.readTree(line);
            if (!"node started".equals(event.path("message").asText())) {
                return null;
            }
            return new Started(event.path("peerId").asText(), event.path("listenAddresses").path(0).asText(),
                    event.path("rest").asText(), event.path("metrics").asText());
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    /**
     * Starts {@code java -cp <this JVM's class path> NodeMain args} and waits for it to be up.
     *
     * @param jvmOptions e.g. -Xmx256m; may be empty
     */
    public static NodeProcess start(List<String> jvmOptions, List<String> args, Duration timeout, Path logFile) {
        return start(List.of(), jvmOptions, args, Map.of(), timeout, logFile);
    }

    /**
     * {@link #start(List, List, Duration, Path)} with {@code environment} added to this JVM's (e.g. a preloaded library
     * that moves the process's wall clock, or {@code WAKUNODE2_*} options).
     */
    public static NodeProcess start(List<String> jvmOptions, List<String> args, Map<String, String> environment,
                                    Duration timeout, Path logFile) {
        return start(List.of(), jvmOptions, args, environment, timeout, logFile);
    }

    /**
     * {@link #start(List, List, Map, Duration, Path)} with {@code launcher} before {@code java}, e.g.
     * {@code ip netns exec <namespace>} to run the node in a network namespace of the test.
     */
    public static NodeProcess start(List<String> launcher, List<String> jvmOptions, List<String> args,
                                    Map<String, String> environment, Duration timeout, Path logFile) {
        List<String> command = new ArrayList<>(launcher);
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(NodeMain.class.getName());
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(environment);
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start a node process", e);
        }
        List<String> lines = Collections.synchronizedList(new ArrayList<>());
        CompletableFuture<Started> started = new CompletableFuture<>();
        Thread pump = new Thread(() -> pump(process, lines, started, logFile), "node-output-" + process.pid());
        pump.setDaemon(true);
        pump.start();
        try {
            NodeProcess node = new NodeProcess(process, lines, started.get(timeout.toMillis(), TimeUnit.MILLISECONDS));
            node.pump = pump;
            return node;
        } catch (TimeoutException | InterruptedException | java.util.concurrent.ExecutionException e) {
            process.destroyForcibly();
            throw new IllegalStateException("node process did not start within " + timeout + "; output:\n" + String.join("\n", lines), e);
        }
    }

    private static void pump(Process process, List<String> lines, CompletableFuture<Started> started, Path logFile) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
             var log = logFile == null ? null : java.nio.file.Files.newBufferedWriter(logFile, StandardCharsets.UTF_8)) {
            for (String line; (line = in.readLine()) != null; ) {
                lines.add(line);
                if (log != null) {
                    log.write(line);
                    log.newLine();
                    log.flush();
                }
                Started values = started.isDone() ? null : started(line);
                if (values != null) {
                    started.complete(values);
                }
            }
        } catch (IOException e) {
            // the process ended
        }
        started.completeExceptionally(new IllegalStateException("node process ended its output before it started"));
    }

    private static InetSocketAddress address(String hostPort) {
        if (hostPort.equals("off")) {
            return null;
        }
        int colon = hostPort.lastIndexOf(':');
        return new InetSocketAddress(hostPort.substring(0, colon).replace("[", "").replace("]", ""),
                Integer.parseInt(hostPort.substring(colon + 1)));
    }

    public String peerId() {
        return peerId;
    }

    /** The first address the node announced, with its /p2p peer id. */
    public Multiaddr multiaddr() {
        return multiaddr;
    }

    public InetSocketAddress peerAddress() {
        return peerAddress;
    }

    public InetSocketAddress restAddress() {
        return restAddress;
    }

    public InetSocketAddress metricsAddress() {
        return metricsAddress;
    }

    /** Everything the process printed so far. */
    public List<String> output() {
        synchronized (output) {
            return List.copyOf(output);
        }
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** SIGTERM and wait: the node shuts down gracefully. Returns the exit code. */
    public int stop(Duration timeout) {
        // through the handle: Process.destroy() would also close our end of its output, losing its last words
        process.toHandle().destroy();
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor();
            }
            pump.join(5000); // so that output() holds the last lines
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return process.exitValue();
    }

    /** SIGKILL: the node gets no chance to clean up. */
    public void kill() {
        process.destroyForcibly();
        try {
            process.waitFor();
            pump.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            stop(Duration.ofSeconds(20));
        }
    }
}
