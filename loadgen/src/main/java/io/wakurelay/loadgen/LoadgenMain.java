package io.wakurelay.loadgen;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.wakurelay.archive.Durability;
import io.wakurelay.node.config.DurationText;
import io.wakurelay.protocol.PayloadMix;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

/**
 * {@code java -jar wakurelay-loadgen.jar <scenario> [options]}: prints the CSV header and one row per run on
 * stdout (progress goes to stderr), and optionally the rows as JSON.
 */
@Command(name = "wakurelay-loadgen", mixinStandardHelpOptions = true, usageHelpWidth = 110,
        description = "Seeded load for wakurelay nodes: micro, macro, lat, thr, drive and query scenarios.",
        subcommands = {LoadgenMain.Micro.class, LoadgenMain.Macro.class, LoadgenMain.Fanout.class, LoadgenMain.Mesh.class, LoadgenMain.Discover.class, LoadgenMain.Lat.class, LoadgenMain.Thr.class,
                LoadgenMain.Drive.class, LoadgenMain.Query.class})
public final class LoadgenMain implements Runnable {
    /** Exit code when messages were lost. */
    public static final int EXIT_LOSS = 3;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        quietLogs();
        CommandLine cli = new CommandLine(new LoadgenMain());
        cli.setOut(new java.io.PrintWriter(out, true));
        cli.setErr(new java.io.PrintWriter(err, true));
        cli.setExecutionExceptionHandler((e, line, parsed) -> {
            err.println("wakurelay-loadgen: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
            return 1;
        });
        Sink.out = out;
        Sink.err = err;
        return cli.execute(args);
    }

    /** The nodes a scenario starts log their start and stop at INFO; rows and progress are what matter here. */
    private static void quietLogs() {
        if (org.slf4j.LoggerFactory.getILoggerFactory() instanceof ch.qos.logback.classic.LoggerContext context) {
            context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).setLevel(ch.qos.logback.classic.Level.WARN);
        }
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "name a scenario: micro, macro, lat, thr, drive or query");
    }

    /** Where rows go (set per run so tests can capture them). */
    static final class Sink {
        static PrintStream out = System.out;
        static PrintStream err = System.err;

        private Sink() {
        }
    }

    static final class WorkloadOptions {
        @Option(names = "--seed", defaultValue = "42", description = "seed of sizes and payloads (default: ${DEFAULT-VALUE})")
        long seed;

        @Option(names = "--mix", defaultValue = PayloadMix.DEFAULT_SPEC, description = "payload mix bytes:percent,... (default: ${DEFAULT-VALUE})")
        String mix;

        @Option(names = {"-n", "--count"}, defaultValue = "1000", description = "measured messages (default: ${DEFAULT-VALUE})")
        int count;

        @Option(names = "--warmup", defaultValue = "100", description = "messages sent before measuring (default: ${DEFAULT-VALUE})")
        int warmup;

        @Option(names = "--pubsub-topic", defaultValue = Workload.DEFAULT_PUBSUB_TOPIC, description = "(default: ${DEFAULT-VALUE})")
        String pubsubTopic;

        @Option(names = "--content-topic", defaultValue = Workload.DEFAULT_CONTENT_TOPIC, description = "(default: ${DEFAULT-VALUE})")
        String contentTopic;

        Workload workload() {
            return new Workload(seed, PayloadMix.parse(mix), count, warmup, pubsubTopic, contentTopic);
        }
    }

    static final class OutputOptions {
        @Option(names = "--json", paramLabel = "FILE", description = "also write the rows as JSON")
        Path json;

        @Option(names = "--html", paramLabel = "FILE", description = "also write an HTML report with a latency histogram, and beside it the distribution as HdrHistogram's .hgrm")
        Path html;

        @Option(names = "--work-dir", paramLabel = "DIR", description = "where in-process nodes keep their data, kept after the run; "
                + "must be empty or absent (default: a temporary directory, deleted after)")
        Path workDir;

        @Option(names = "--no-header", description = "print the row without the CSV header")
        boolean noHeader;

        <T> T inWorkDir(java.util.function.Function<Path, T> body) {
            if (workDir != null) {
                return body.apply(emptyWorkDir(workDir));
            }
            Path temp;
            try {
                temp = Files.createTempDirectory("wakurelay-loadgen");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            try {
                return body.apply(temp);
            } finally {
                deleteTree(temp);
            }
        }

        /** The seeded mix the scenario replayed, for the report's header; null for the fixed-size scenarios. */
        private Workload workload;

        OutputOptions replaying(Workload w) {
            this.workload = w;
            return this;
        }

        int report(ResultRow row) {
            return reportAll(List.of(row));
        }

        /** Rows of one invocation (mesh's IDONTWANT on and off), side by side in every output. */
        int reportAll(List<ResultRow> rows) {
            if (!noHeader) {
                Sink.out.println(ResultRow.CSV_HEADER);
            }
            rows.forEach(row -> Sink.out.println(row.csv()));
            if (json != null) {
                try {
                    new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(json.toFile(),
                            rows.stream().map(ResultRow::json).toList());
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot write " + json, e);
                }
            }
            if (html != null) {
                try {
                    HtmlReport.write(html, rows, RunFacts.of(workload));
                    // the first row's distribution beside the report (the others' are in the report)
                    Hgrm.write(Hgrm.besides(html), rows.get(0).latencies());
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot write " + html, e);
                }
            }
            return rows.stream().anyMatch(row -> row.missing() > 0) ? EXIT_LOSS : 0;
        }
    }

    /** A store left by an earlier run would be reopened and skew the figures, so a given work directory must be empty. */
    static Path emptyWorkDir(Path dir) {
        try {
            Files.createDirectories(dir);
            try (Stream<Path> entries = Files.list(dir)) {
                if (entries.findAny().isPresent()) {
                    throw new IllegalArgumentException("--work-dir " + dir + " is not empty: give an empty or new directory");
                }
            }
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot use --work-dir " + dir, e);
        }
    }

    static void deleteTree(Path root) {
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort: a temporary directory
        }
    }

    @Command(name = "micro", mixinStandardHelpOptions = true,
            description = "One node, no network: frames injected into the receive path and archived (RocksDB, or PostgreSQL).")
    static final class Micro implements Callable<Integer> {
        @Mixin
        WorkloadOptions workload;
        @Mixin
        OutputOptions output;

        @Option(names = "--store-durability", defaultValue = "wal", paramLabel = "MODE",
                description = "the node's --store-durability: wal, wal-sync or flush (default: ${DEFAULT-VALUE})")
        String durability;

        @Option(names = "--store-message-db-url", defaultValue = "", paramLabel = "URL",
                description = "the node's --store-message-db-url: empty for RocksDB in the work dir, "
                        + "postgres://user:password@host:port/database for PostgreSQL (an empty database: the run counts what it stores)")
        String storeDbUrl;

        @Override
        public Integer call() {
            Workload w = workload.workload();
            Durability mode = Durability.parse(durability);
            return output.replaying(w).report(output.inWorkDir(dir -> MicroScenario.run(w, dir, mode, storeDbUrl, Sink.err)));
        }
    }

    @Command(name = "macro", mixinStandardHelpOptions = true,
            description = "Two nodes on loopback: a publisher and an archiving receiver.")
    static final class Macro implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;
        @Mixin
        WorkloadOptions workload;
        @Mixin
        OutputOptions output;

        @Option(names = "--processes", description = "run the receiver as a separate process")
        boolean processes;

        @Option(names = "--store-message-db-url", defaultValue = "", paramLabel = "URL",
                description = "the receiver's --store-message-db-url: empty for RocksDB in the work dir, "
                        + "postgres://user:password@host:port/database for PostgreSQL (an empty database)")
        String storeDbUrl;
        @Option(names = "--transport", defaultValue = "tcp",
                description = "tcp, or ws: the publisher dials the receiver over libp2p's WebSocket transport "
                        + "(in-process only; default: ${DEFAULT-VALUE})")
        String transport;
        @Option(names = "--store-poll", defaultValue = "20", paramLabel = "MS",
                description = "with --processes: how often the receiver's Store is polled for what it archived, "
                        + "1 - 1000 ms; the latency's resolution (default: ${DEFAULT-VALUE})")
        long storePollMillis;

        @Override
        public Integer call() {
            Workload w = workload.workload();
            if (!transport.equals("tcp") && !transport.equals("ws")) {
                throw new CommandLine.ParameterException(spec.commandLine(),
                        "--transport is tcp or ws, not " + transport);
            }
            if (storePollMillis < 1 || storePollMillis > 1000) {
                throw new CommandLine.ParameterException(spec.commandLine(),
                        "--store-poll must be 1 - 1000 ms, was " + storePollMillis);
            }
            boolean ws = transport.equals("ws");
            Duration poll = Duration.ofMillis(storePollMillis);
            return output.replaying(w).report(output.inWorkDir(dir -> MacroScenario.run(w, dir, processes, storeDbUrl, ws, poll, Sink.err)));
        }
    }

    @Command(name = "fanout", mixinStandardHelpOptions = true,
            description = "One archiving relay node forwarding every message to D mesh peers over Noise and yamux.")
    static final class Fanout implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;
        @Mixin
        WorkloadOptions workload;
        @Mixin
        OutputOptions output;

        @Option(names = "-d", defaultValue = "6", paramLabel = "D",
                description = "mesh peers of the relay, each a node in this JVM (default: ${DEFAULT-VALUE}, gossipsub's D)")
        int d;

        @Override
        public Integer call() {
            if (d < 1 || d > 64) {
                throw new CommandLine.ParameterException(spec.commandLine(), "-d must be 1..64, was " + d);
            }
            Workload w = workload.workload();
            return output.replaying(w).report(output.inWorkDir(dir -> FanoutScenario.run(w, d, dir, Sink.err)));
        }
    }

    @Command(name = "mesh", mixinStandardHelpOptions = true,
            description = "N relay nodes in a random overlay; messages handed to random nodes at a fixed rate reach all.")
    static final class Mesh implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;
        @Mixin
        WorkloadOptions workload;
        @Mixin
        OutputOptions output;

        @Option(names = "--nodes", defaultValue = "10", paramLabel = "N", description = "relay nodes in this JVM (default: ${DEFAULT-VALUE})")
        int nodes;
        @Option(names = "--links", defaultValue = "4", paramLabel = "K",
                description = "nodes each node dials among those started before it (default: ${DEFAULT-VALUE})")
        int links;
        @Option(names = "--rate", defaultValue = "20", description = "messages per second handed to the overlay (default: ${DEFAULT-VALUE})")
        double rate;
        @Option(names = "--link-delay", defaultValue = "0", paramLabel = "MS",
                description = "one-way delay of every link, through a delaying proxy per link (default: ${DEFAULT-VALUE})")
        long linkDelayMs;
        @Option(names = "--link-bandwidth", defaultValue = "0", paramLabel = "MBIT",
                description = "each direction's bandwidth on every link, megabits per second, through the same proxies; 0: "
                        + "none (default: ${DEFAULT-VALUE})")
        double linkBandwidthMbit;
        @Option(names = "--idontwant", defaultValue = "on", paramLabel = "on|off|both",
                description = "whether nodes send IDONTWANT; both: a run with it off, then one with it on (default: ${DEFAULT-VALUE})")
        String iDontWant;

        @Override
        public Integer call() {
            if (nodes < 2 || nodes > 200 || links < 1 || rate <= 0 || linkDelayMs < 0 || linkBandwidthMbit < 0
                    || !List.of("on", "off", "both").contains(iDontWant)) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--nodes must be 2..200, --links at "
                        + "least 1, --rate positive, --link-delay and --link-bandwidth not negative, --idontwant on, off or both");
            }
            long bitsPerSecond = Math.round(linkBandwidthMbit * 1e6);
            Workload w = workload.workload();
            List<Boolean> modes = iDontWant.equals("both") ? List.of(false, true) : List.of(iDontWant.equals("on"));
            return output.replaying(w).reportAll(output.inWorkDir(dir -> modes.stream().map(on -> MeshScenario.run(w,
                    new MeshScenario.Settings(nodes, links, rate, java.time.Duration.ofMillis(linkDelayMs), bitsPerSecond, on),
                    dir.resolve(on ? "idontwant-on" : "idontwant-off"), Sink.err)).toList()));
        }
    }

    @Command(name = "discover", mixinStandardHelpOptions = true,
            description = "N relay nodes given only node 0's ENR as discv5 bootstrap node form one mesh; a message reaches all.")
    static final class Discover implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;
        @Mixin
        OutputOptions output;

        @Option(names = "--nodes", defaultValue = "20", paramLabel = "N", description = "relay nodes in this JVM, on 127.0.0.2.. (default: ${DEFAULT-VALUE})")
        int nodes;
        @Option(names = "--lookup-interval", defaultValue = "5s", paramLabel = "DURATION",
                description = "pause between two discv5 lookups of a node (default: ${DEFAULT-VALUE}, nwaku's)")
        String lookupInterval;
        @Option(names = "--timeout", defaultValue = "120s", paramLabel = "DURATION",
                description = "how long the nodes have to reach every milestone (default: ${DEFAULT-VALUE})")
        String timeout;
        @Option(names = {"-n", "--count"}, defaultValue = "50", description = "messages published once formed (default: ${DEFAULT-VALUE})")
        int count;
        @Option(names = "--payload-bytes", defaultValue = "1000", description = "payload of each message (default: ${DEFAULT-VALUE})")
        int payloadBytes;
        @Option(names = "--rate", defaultValue = "10", description = "messages per second (default: ${DEFAULT-VALUE})")
        double rate;
        @Option(names = "--seed", defaultValue = "42", description = "seed of the publishing nodes and payloads (default: ${DEFAULT-VALUE})")
        long seed;
        @Option(names = "--settle", defaultValue = "30s", description = "how long to wait for stragglers (default: ${DEFAULT-VALUE})")
        String settle;
        @Option(names = "--pubsub-topic", defaultValue = Workload.DEFAULT_PUBSUB_TOPIC, description = "(default: ${DEFAULT-VALUE})")
        String topic;

        @Override
        public Integer call() {
            if (nodes < 2 || nodes > 251 || count < 1 || rate <= 0 || payloadBytes < 0 || payloadBytes > 100_000) {
                throw new CommandLine.ParameterException(spec.commandLine(),
                        "--nodes must be 2..251, --count at least 1, --rate positive, --payload-bytes 0..100000");
            }
            DiscoverScenario.Params p = new DiscoverScenario.Params(nodes, DurationText.parse(lookupInterval),
                    DurationText.parse(timeout), count, payloadBytes, rate, seed, topic, DurationText.parse(settle));
            ResultRow row = output.inWorkDir(dir -> DiscoverScenario.run(p, dir, Sink.err));
            int code = output.report(row);
            return code != 0 || DiscoverRun.formed(row) ? code : DiscoverRun.EXIT_NOT_FORMED;
        }
    }

    @Command(name = "lat", mixinStandardHelpOptions = true,
            description = "Round-trip latency through a relay node, after nanomsg's local_lat/remote_lat.")
    static final class Lat implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "SIZE", description = "message payload size in bytes")
        int size;
        @Parameters(index = "1", paramLabel = "COUNT", description = "round trips")
        int count;
        @Option(names = "--warmup", defaultValue = "100", description = "round trips before measuring (default: ${DEFAULT-VALUE})")
        int warmup;
        @Option(names = "--store", description = "let the relay node archive too")
        boolean store;
        @Option(names = "--pubsub-topic", defaultValue = Workload.DEFAULT_PUBSUB_TOPIC)
        String topic;
        @Mixin
        OutputOptions output;

        @Override
        public Integer call() {
            return output.report(output.inWorkDir(dir -> LatencyScenario.run(topic, size, count, warmup, store, dir, Sink.err)));
        }
    }

    @Command(name = "thr", mixinStandardHelpOptions = true,
            description = "Throughput through a relay node, after nanomsg's local_thr/remote_thr.")
    static final class Thr implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "SIZE", description = "message payload size in bytes")
        int size;
        @Parameters(index = "1", paramLabel = "COUNT", description = "messages")
        int count;
        @Option(names = "--warmup", defaultValue = "100", description = "messages before measuring (default: ${DEFAULT-VALUE})")
        int warmup;
        @Option(names = "--store", description = "let the relay node archive too")
        boolean store;
        @Option(names = "--pubsub-topic", defaultValue = Workload.DEFAULT_PUBSUB_TOPIC)
        String topic;
        @Mixin
        OutputOptions output;

        @Override
        public Integer call() {
            return output.report(output.inWorkDir(dir -> ThroughputScenario.run(topic, size, count, warmup, store, dir, Sink.err)));
        }
    }

    @Command(name = "drive", mixinStandardHelpOptions = true,
            description = "Against running nodes: publish to one node over libp2p (gossipsub), verify every hash in another node's store over REST.")
    static final class Drive implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;
        @Mixin
        WorkloadOptions workload;
        @Mixin
        OutputOptions output;

        @CommandLine.ArgGroup(multiplicity = "1")
        PublishTarget target;

        /** Exactly one way to publish. */
        static final class PublishTarget {
            @Option(names = "--publish-to", required = true, paramLabel = "MULTIADDR",
                    description = "the node to publish to as a libp2p peer: a multiaddr ending in /p2p/<peer id>, as its /debug/v1/info lists them")
            String publishTo;

            @Option(names = "--publish-rest", required = true, paramLabel = "HOST:PORT",
                    description = "the node to publish to through its REST API (POST /relay/v1/messages), ours or nwaku's")
            String publishRest;
        }

        @Option(names = "--store-at", required = true, paramLabel = "HOST:PORT", description = "REST address of the node whose store is checked")
        String storeAt;

        @Option(names = "--rate", defaultValue = "0", description = "messages per second; 0 = as fast as confirmations allow (default: ${DEFAULT-VALUE})")
        double rate;

        @Option(names = "--settle", defaultValue = "30s", description = "how long to wait for stragglers before counting losses (default: ${DEFAULT-VALUE})")
        String settle;

        @Override
        public Integer call() {
            String publishTo = target.publishTo;
            try {
                if (publishTo != null && io.wakurelay.p2p.multiaddr.Multiaddr.parse(publishTo).peerId().isEmpty()) {
                    throw new CommandLine.ParameterException(spec.commandLine(),
                            "--publish-to must end in /p2p/<peer id> (the node's /debug/v1/info lists its addresses), was " + publishTo);
                }
            } catch (io.wakurelay.p2p.multiaddr.MultiaddrFormatException | IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--publish-to is not a multiaddr: " + e.getMessage());
            }
            Workload w = workload.workload();
            return output.replaying(w).report(output.inWorkDir(dir -> DriveScenario.run(w, publishTo, target.publishRest, storeAt, rate, DurationText.parse(settle), dir, Sink.err)));
        }
    }

    @Command(name = "query", mixinStandardHelpOptions = true,
            description = "Against a running node: Store query latency and the node's memory per query, pages with data over REST.")
    static final class Query implements Callable<Integer> {
        @Mixin
        OutputOptions output;

        @Option(names = "--rest-at", required = true, paramLabel = "HOST:PORT", description = "REST address of the node queried")
        String restAt;

        @Option(names = "--metrics-at", required = true, paramLabel = "HOST:PORT", description = "metrics address of the same node")
        String metricsAt;

        @Option(names = "--page-size", defaultValue = "20", description = "messages per page, with data (default: ${DEFAULT-VALUE})")
        int pageSize;

        @Option(names = {"-n", "--count"}, defaultValue = "200", description = "queries measured, after 20 of warmup (default: ${DEFAULT-VALUE})")
        int queries;

        @Option(names = "--concurrency", defaultValue = "1", description = "clients querying at once (default: ${DEFAULT-VALUE})")
        int concurrency;

        @Option(names = "--fill", defaultValue = "0", description = "messages to publish over REST first (default: ${DEFAULT-VALUE})")
        int fill;

        @Option(names = "--payload-bytes", defaultValue = "140000", description = "payload size of the --fill messages (default: ${DEFAULT-VALUE})")
        int payloadBytes;

        @Option(names = "--pubsub-topic", defaultValue = Workload.DEFAULT_PUBSUB_TOPIC, description = "(default: ${DEFAULT-VALUE})")
        String pubsubTopic;

        @Option(names = "--content-topic", defaultValue = "/loadgen/1/query/proto", description = "(default: ${DEFAULT-VALUE})")
        String contentTopic;

        @Override
        public Integer call() {
            return output.report(QueryScenario.run(new QueryScenario.Options(restAt, metricsAt, pageSize, queries, concurrency, fill,
                    payloadBytes, pubsubTopic, contentTopic), Sink.err));
        }
    }
}
