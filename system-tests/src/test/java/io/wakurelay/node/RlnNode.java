package io.wakurelay.node;

import com.fasterxml.jackson.databind.JsonNode;
import io.wakurelay.testkit.Anvil;
import io.wakurelay.testkit.Eventually;
import io.wakurelay.testkit.FakeTime;
import io.wakurelay.testkit.JsPeer;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A node process as an operator of The Waku Network starts it, {@code --cluster-id=1} with a local chain's endpoint
 * and nothing else of RLN, on a chain that looks like The Waku Network's (anvil with chain id 59141 and our membership
 * contract placed at the preset's address), with discv5 off so that the preset's public bootstrap records are never
 * dialled, and its wall clock moved with faketime to the RLN test vectors' time ({@link RlnCases}). The node's JVM is
 * bounded as operators run it, under Netty's paranoid leak detector; {@code /admin} is on, for the peers' scores.
 */
final class RlnNode implements AutoCloseable {
    static final List<String> JVM = List.of("-Xmx256m", "-XX:+ExitOnOutOfMemoryError",
            "-Dio.netty.leakDetection.level=paranoid");
    static final Duration STARTUP = Duration.ofSeconds(120);
    static final Duration SOON = Duration.ofSeconds(20);

    final Anvil chain;
    final FakeTime clock;
    final NodeProcess process;
    final Http rest;
    final Http metrics;

    private RlnNode(Anvil chain, FakeTime clock, NodeProcess process) {
        this.chain = chain;
        this.clock = clock;
        this.process = process;
        this.rest = new Http(process.restAddress());
        this.metrics = new Http(process.metricsAddress());
    }

    /**
     * The chain: anvil reporting The Waku Network's chain id, our contract's code at the preset's address, its state
     * that after registration 20 (the root case A5 names; {@link #registerUpToSixty} adds the rest).
     */
    static Anvil twnChain() {
        Anvil chain = Anvil.start(Anvil.TWN_CHAIN_ID);
        try {
            chain.placeMembershipContract(Anvil.TWN_CONTRACT);
            chain.setState(Anvil.TWN_CONTRACT, RlnCases.rootAfter(20), 20);
            return chain;
        } catch (RuntimeException | Error e) {
            chain.close();
            throw e;
        }
    }

    /** The node's log, kept after the test (target/rln-nodes/) for when it fails. */
    private static Path logFile() {
        Path logs = Path.of(System.getProperty("user.dir"), "target", "rln-nodes");
        try {
            java.nio.file.Files.createDirectories(logs);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        String stamp = java.time.LocalDateTime.now().format(java.time.format.DateTimeFormatter.ofPattern("HHmmss-SSS"));
        return logs.resolve("node-" + stamp + ".log");
    }

    /** The node's arguments besides {@code extra}: loopback, any ports, the preset, the chain's endpoint, no discv5. */
    static List<String> args(Path data, Anvil chain, String... extra) {
        List<String> args = new ArrayList<>(List.of("--data-dir", data.toString(), "--listen-address", "127.0.0.1",
                "--tcp-port", "0", "--rest-port", "0", "--metrics-server-port", "0", "--rest-admin",
                "--cluster-id=1", "--rln-relay-eth-client-address=" + chain.rpcUri(), "--discv5-discovery=false"));
        args.addAll(List.of(extra));
        return args;
    }

    /** Starts the node with its clock at {@code clockNanos} (it runs on from there) and waits for it to be up. */
    static RlnNode start(Path dir, Anvil chain, long clockNanos, String... extra) {
        FakeTime clock = FakeTime.at(dir, clockNanos);
        NodeProcess process = NodeProcess.start(JVM, args(dir.resolve("data"), chain, extra), clock.environment(),
                STARTUP, logFile());
        RlnNode node = new RlnNode(chain, clock, process);
        try {
            Eventually.until("RLN is ready (a root read)", SOON, () -> node.rlnHealth().equals("READY"));
            return node;
        } catch (RuntimeException | Error e) {
            process.kill();
            throw e;
        }
    }

    /**
     * Registrations 21 to 60 in one transaction: the contract's root becomes the one most cases name. Returns once the
     * node holds it beside root 20 (it reads {@code root()} at each 5 s poll, as nwaku): a window of the two roots of
     * the vectors' acceptable roots that the cases name (the node sees only the roots it polls; root 6, which R4-aged
     * names, is not among them).
     */
    void registerUpToSixty() {
        chain.setState(Anvil.TWN_CONTRACT, RlnCases.rootAfter(60), 60);
        Eventually.until("the node holds the roots after registrations 20 and 60", SOON,
                () -> metric("waku_rln_root_window_size") == 2
                        && metric("waku_rln_number_registered_memberships") == 60);
    }

    /** A js-libp2p gossipsub peer configured as js-waku's relay, listening on {@code ip} (of 127.0.0.0/8). */
    static JsPeer gossipsubPeer(String ip, boolean subscribed) {
        List<String> args = new ArrayList<>(List.of("--gossipsub", "--listen", "/ip4/" + ip + "/tcp/0",
                "--timeout-s", "300"));
        if (subscribed) {
            args.addAll(List.of("--topics", RlnCases.TOPIC));
        }
        return JsPeer.start(JsPeer.Script.PEER, args);
    }

    /** {@code --staticnode} for these peers: the node dials each, each a relay peer from an address of its own. */
    static String staticNodes(List<JsPeer> peers) {
        return "--staticnode=" + peers.stream().map(p -> p.addrs().get(0)).collect(Collectors.joining(","));
    }

    /** Waits until the peer knows that the node relays the vectors' topic (so that it publishes to it). */
    void awaitTopicPeer(JsPeer peer) {
        Eventually.until(peer + " sees the node on " + RlnCases.TOPIC, SOON, () -> peer.call("mesh",
                java.util.Map.of("topic", RlnCases.TOPIC)).path("subscribers").toString().contains(process.peerId()));
    }

    /** Waits until the peer is in the node's mesh of the vectors' topic. */
    void awaitInMesh(JsPeer peer) {
        Eventually.until(peer + " in the node's mesh", SOON,
                () -> peer(peer.peerId()).path("meshTopics").toString().contains(RlnCases.TOPIC));
    }

    String rlnHealth() {
        for (JsonNode p : rest.get("/health").json().path("protocolsHealth")) {
            if (p.has("Rln Relay")) {
                return p.path("Rln Relay").asText();
            }
        }
        throw new AssertionError("no Rln Relay line in /health");
    }

    /** The whole exposition. */
    String scrape() {
        return metrics.get("/metrics").body();
    }

    /** Only these metric families (the metrics server's {@code name[]} filter): a cheap scrape. */
    String scrape(List<String> families) {
        return metrics.get("/metrics?" + families.stream().map(f -> "name%5B%5D=" + f)
                .collect(Collectors.joining("&"))).body();
    }

    /** One sample of the whole exposition ({@link Http#metric}: -1 when absent). */
    double metric(String selector) {
        return Http.metric(scrape(), selector);
    }

    /** GET /admin/v1/peers */
    JsonNode peers() {
        return rest.get("/admin/v1/peers").json();
    }

    /** The node's view of one peer, or a missing node. */
    JsonNode peer(String peerId) {
        for (JsonNode p : peers()) {
            if (p.path("peerId").asText().equals(peerId)) {
                return p;
            }
        }
        return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
    }

    /** The peer's gossipsub score as the node sees it. */
    double score(String peerId) {
        JsonNode p = peer(peerId);
        assertThat(p.path("score").isNumber()).as("the node's view of %s: %s", peerId, p).isTrue();
        return p.path("score").asDouble();
    }

    /** Netty's paranoid leak detector found nothing, and the JVM did not run out of memory. */
    void assertNoLeaks() {
        assertThat(process.output()).as("the node's log").noneMatch(line -> line.contains("LEAK:"))
                .noneMatch(line -> line.contains("OutOfMemoryError"));
    }

    @Override
    public void close() {
        process.close();
    }
}
