package io.wakurelay.testkit;

import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One JavaScript interop peer (a script of the repository's {@code interop/} directory) in a child process, driven
 * over JSON lines: commands on its stdin, replies and events on its stdout, its log (stderr) in a file under
 * {@code target/js-peers/}. See {@code interop/README.md} for each script's arguments, commands and events.
 *
 * <pre>{@code
 * try (JsPeer peer = JsPeer.start(JsPeer.Script.PEER, List.of("--muxers", "yamux"))) {
 *     JsonNode reply = peer.call("dial", Map.of("addr", ourNodeAddr), Duration.ofSeconds(10));
 *     peer.awaitEvent("identify", e -> e.path("peerId").asText().equals(ourPeerId), Duration.ofSeconds(10));
 * }
 * }</pre>
 *
 * <p>The first start in a JVM runs {@code interop/install.sh} (npm ci where needed). A peer that is not closed is
 * stopped by a shutdown hook; a peer also ends by itself when its stdin closes or after {@code --timeout-s}
 * seconds (300 unless the arguments say otherwise), so no process outlives the test run.
 */
public final class JsPeer implements AutoCloseable {

    /** The interop scripts, by their path under {@code interop/}. */
    public enum Script {
        /** A bare js-libp2p 2.8 peer: echo, ping, identify, optionally gossipsub as js-waku configures it. */
        PEER("libp2p/peer.mjs"),
        /** A js-waku relay node (@waku/sdk 0.0.27, libp2p 1.9, mplex only). */
        RELAY_NODE("relay/relay-node.mjs"),
        /** A js-waku light node (@waku/sdk 0.0.36, libp2p 2.8): Store v3, lightpush and filter client. */
        LIGHT_NODE("light/light-node.mjs"),
        /** js-waku's ENR library (@waku/enr 0.0.33): decodes and creates records; no network. */
        ENR_TOOL("discovery/enr-tool.mjs"),
        /** ChainSafe's discv5 (@chainsafe/discv5 10.0.1): a discv5 node on 127.0.0.1. */
        DISCV5_NODE("discv5/discv5-node.mjs"),
        /**
         * The same light node in a page of headless Chromium (Debian's), over WebSocket as a browser app: @waku/sdk
         * bundled with esbuild, the browser driven by playwright-core.
         */
        BROWSER_NODE("browser/browser-node.mjs"),
        /**
         * Foundry's anvil (a local Ethereum node, @foundry-rs/anvil-linux-amd64) on 127.0.0.1, with our membership
         * contract for tests compiled by solc-js; started through {@link Anvil}.
         */
        CHAIN("chain/anvil.mjs"),
        /**
         * Not a peer: an oracle for the rln module's crypto (poseidon-lite, @noble/curves' BN254, snarkjs' Groth16);
         * no network.
         */
        RLN_ORACLE("rln-oracle/oracle.mjs");

        private final String path;

        Script(String path) {
            this.path = path;
        }

        /** The script's path under {@code interop/}. */
        public String path() {
            return path;
        }

        String label() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    private static final Logger LOG = LoggerFactory.getLogger(JsPeer.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration DEFAULT_CALL_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration STOP_GRACE = Duration.ofSeconds(5);
    private static final AtomicInteger SEQUENCE = new AtomicInteger();
    private static final Set<JsPeer> RUNNING = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> RUNNING.forEach(JsPeer::close), "js-peer-reaper"));
    }

    private final Script script;
    private final Process process;
    private final Path logFile;
    private final Writer stdin;
    private final AtomicLong nextId = new AtomicLong(1);
    private final Map<Long, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
    private final List<JsonNode> events = new ArrayList<>(); // guarded by itself
    private final CompletableFuture<JsonNode> firstLine = new CompletableFuture<>();
    private volatile JsonNode ready;

    private JsPeer(Script script, Process process, Path logFile) {
        this.script = script;
        this.process = process;
        this.logFile = logFile;
        this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        Thread reader = new Thread(this::readStdout, "js-peer-" + script.label() + "-" + process.pid());
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts a script with these arguments and waits for its ready line; fails the test when it does not come. */
    public static JsPeer start(Script script, List<String> args) {
        Path interopDir = InteropDirectory.find();
        Path logDir = Path.of(System.getProperty("user.dir"), "target", "js-peers");
        NpmInstall.ensureInstalled(interopDir, logDir);

        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("HHmmss-SSS"));
        Path logFile = logDir.resolve(script.label() + "-" + stamp + "-" + SEQUENCE.incrementAndGet() + ".log");
        List<String> command = new ArrayList<>(List.of("node", "--import",
                interopDir.resolve("polyfill.mjs").toString(), interopDir.resolve(script.path()).toString()));
        command.addAll(args);
        Process process;
        try {
            Files.createDirectories(logDir);
            process = new ProcessBuilder(command)
                    .directory(interopDir.resolve(script.path()).getParent().toFile())
                    .redirectError(logFile.toFile())
                    .start();
        } catch (IOException e) {
            return fail("cannot start " + String.join(" ", command) + " (is node on the PATH?)", e);
        }
        JsPeer peer = new JsPeer(script, process, logFile);
        RUNNING.add(peer);
        LOG.atInfo().addKeyValue("script", script.label()).addKeyValue("pid", process.pid())
                .addKeyValue("args", String.join(" ", args)).addKeyValue("file", String.valueOf(logFile)).log("JS peer started");
        peer.awaitReady();
        return peer;
    }

    /** {@link #start(Script, List)} with the arguments inline. */
    public static JsPeer start(Script script, String... args) {
        return start(script, List.of(args));
    }

    private void awaitReady() {
        JsonNode line;
        try {
            line = firstLine.get(READY_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            close();
            fail(this + " printed no ready line within " + READY_TIMEOUT + "\n" + LogTail.of(logFile));
            return;
        } catch (ExecutionException e) {
            close();
            fail(this + " ended before its ready line: " + e.getCause().getMessage() + "\n" + LogTail.of(logFile));
            return;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            close();
            fail("interrupted while " + this + " started");
            return;
        }
        if (!"ready".equals(line.path("event").asText())) {
            close();
            fail(this + " did not start: " + line + "\n" + LogTail.of(logFile));
        }
        ready = line;
    }

    /** The peer id (base58) from the ready line. */
    public String peerId() {
        return ready.path("peerId").asText();
    }

    /** The listen addresses from the ready line, each ending in {@code /p2p/<peer id>}; empty when not listening. */
    public List<String> addrs() {
        List<String> addrs = new ArrayList<>();
        ready.path("addrs").forEach(a -> addrs.add(a.asText()));
        return addrs;
    }

    /** The whole ready line, with the script's extra fields (e.g. the relay node's {@code pubsubTopics}). */
    public JsonNode readyLine() {
        return ready;
    }

    /** The file the script's stderr goes to. */
    public Path logFile() {
        return logFile;
    }

    /**
     * Sends a command with a fresh id and returns its reply (which has {@code "ok": true}).
     *
     * @throws JsCommandException when the script answers {@code "ok": false}, with its error text
     */
    public JsonNode call(String cmd, Map<String, ?> fields, Duration timeout) {
        long id = nextId.getAndIncrement();
        ObjectNode request = JSON.valueToTree(fields);
        request.put("id", id);
        request.put("cmd", cmd);
        CompletableFuture<JsonNode> reply = new CompletableFuture<>();
        pending.put(id, reply);
        try {
            send(request);
            JsonNode answer = reply.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (!answer.path("ok").asBoolean(false)) {
                throw new JsCommandException(cmd, answer.path("error").asText(answer.toString()));
            }
            return answer;
        } catch (IOException e) {
            return fail(this + ": cannot send " + request + " (" + e + "); it ended" + exitText() + "\n"
                    + LogTail.of(logFile));
        } catch (TimeoutException e) {
            return fail(this + ": no reply to " + request + " within " + timeout + "\n" + LogTail.of(logFile));
        } catch (ExecutionException e) {
            return fail(this + ": no reply to " + request + ": " + e.getCause().getMessage() + "\n"
                    + LogTail.of(logFile));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return fail("interrupted while waiting for the reply to " + request);
        } finally {
            pending.remove(id);
        }
    }

    /** {@link #call(String, Map, Duration)} with a 30 s timeout. */
    public JsonNode call(String cmd, Map<String, ?> fields) {
        return call(cmd, fields, DEFAULT_CALL_TIMEOUT);
    }

    /**
     * The first event named {@code event} that matches {@code filter}, among those already received or those still
     * to come; fails the test when none arrives within {@code timeout}.
     */
    public JsonNode awaitEvent(String event, Predicate<JsonNode> filter, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (events) {
            int checked = 0;
            while (true) {
                for (; checked < events.size(); checked++) {
                    JsonNode e = events.get(checked);
                    if (event.equals(e.path("event").asText()) && filter.test(e)) {
                        return e;
                    }
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return fail(this + ": no matching \"" + event + "\" event within " + timeout
                            + "; the last events: " + lastEvents(10) + "\n" + LogTail.of(logFile));
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(events, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return fail("interrupted while waiting for a \"" + event + "\" event of " + this);
                }
            }
        }
    }

    /** The events named {@code event} received so far, oldest first. */
    public List<JsonNode> events(String event) {
        synchronized (events) {
            return events.stream().filter(e -> event.equals(e.path("event").asText())).toList();
        }
    }

    /** Whether the process is still running. */
    public boolean isAlive() {
        return process.isAlive();
    }

    /** Waits for the process to end by itself and returns its exit code; fails the test when it does not. */
    public int awaitExit(Duration timeout) {
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                return fail(this + " is still running after " + timeout);
            }
            return process.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return fail("interrupted while waiting for " + this + " to end");
        }
    }

    /**
     * Asks the script to stop, closes its stdin, waits a few seconds for it to end by itself, then kills it.
     * Never leaves the process behind; safe to call more than once.
     */
    @Override
    public void close() {
        try {
            if (process.isAlive()) {
                try {
                    send(JSON.createObjectNode().put("id", nextId.getAndIncrement()).put("cmd", "stop"));
                } catch (IOException e) {
                    // the script is already going away
                }
                closeQuietly(stdin);
                if (!process.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                    LOG.atWarn().addKeyValue("jsPeer", String.valueOf(this)).addKeyValue("grace", String.valueOf(STOP_GRACE))
                            .log("the JS peer did not stop in time: killing it");
                    process.descendants().forEach(ProcessHandle::destroyForcibly);
                    process.destroyForcibly();
                    process.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        } finally {
            closeQuietly(stdin);
            RUNNING.remove(this);
        }
    }

    /** Closes the script's stdin without a stop command, as when the JVM dies: the script must end by itself. */
    void closeStdin() {
        closeQuietly(stdin);
    }

    @Override
    public String toString() {
        return "JsPeer[" + script.path() + ", pid " + process.pid() + "]";
    }

    private void send(JsonNode line) throws IOException {
        String text = JSON.writeValueAsString(line);
        synchronized (stdin) {
            stdin.write(text);
            stdin.write('\n');
            stdin.flush();
        }
    }

    private void readStdout() {
        try (BufferedReader out = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                accept(line);
            }
        } catch (IOException e) {
            LOG.atDebug().addKeyValue("jsPeer", String.valueOf(this)).addKeyValue("reason", e.toString())
                    .log("the JS peer's stdout closed");
        }
        String end = "the process ended" + exitText();
        firstLine.completeExceptionally(new IllegalStateException(end));
        pending.values().forEach(f -> f.completeExceptionally(new IllegalStateException(end)));
        synchronized (events) {
            events.notifyAll();
        }
    }

    private String exitText() {
        try {
            if (process.waitFor(2, TimeUnit.SECONDS)) {
                return " with exit code " + process.exitValue();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return "";
    }

    private void accept(String line) {
        JsonNode node;
        try {
            node = JSON.readTree(line);
        } catch (JsonProcessingException e) {
            // The contract allows only JSON on stdout: keep the stray line visible as an event of its own.
            LOG.atWarn().addKeyValue("jsPeer", String.valueOf(this)).addKeyValue("line", line)
                    .log("a line on the JS peer's stdout that is not JSON");
            node = JSON.createObjectNode().put("event", "not-json").put("line", line);
        }
        if (!firstLine.isDone()) {
            firstLine.complete(node);
        }
        if (node.has("event")) {
            synchronized (events) {
                events.add(node);
                events.notifyAll();
            }
        } else if (node.has("id")) {
            CompletableFuture<JsonNode> reply = pending.get(node.path("id").asLong(-1));
            if (reply != null) {
                reply.complete(node);
            }
        }
    }

    private List<JsonNode> lastEvents(int count) {
        synchronized (events) {
            return List.copyOf(events.subList(Math.max(0, events.size() - count), events.size()));
        }
    }

    private static void closeQuietly(Writer writer) {
        try {
            writer.close();
        } catch (IOException e) {
            // the process has closed its end already
        }
    }
}
