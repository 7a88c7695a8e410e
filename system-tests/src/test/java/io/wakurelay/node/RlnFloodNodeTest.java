package io.wakurelay.node;

import com.fasterxml.jackson.databind.JsonNode;
import io.netty.buffer.Unpooled;
import io.wakurelay.node.RlnCases.Case;
import io.wakurelay.rln.RlnVectors;
import io.wakurelay.testkit.Anvil;
import io.wakurelay.testkit.Closer;
import io.wakurelay.testkit.JsPeer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A node of The Waku Network ({@link RlnNode}) under a flood of forged proofs that each cost a pairing: one js-libp2p
 * peer publishes {@link #RATE} messages a second for {@link #SECONDS} s, each a valid case (A4-0) with its
 * {@code share_y} plus k (k = 1, 2, …): unique messages, canonical fields, the right epoch, a root the node holds and
 * {@code x} still the hash of the signal, so that every one passes the cheap checks and fails only the pairing
 * ({@code invalid_proof}). When the node disconnects it, it dials again (at most every 100 ms). An honest js-libp2p
 * peer publishes the valid cases of epoch E to a js-libp2p receiver through the node: 5 before the flood (the
 * latencies to compare with) and 10 during it, one every 1.2 s (only about twenty valid proofs exist in the vectors,
 * fifteen of them in epoch E).
 *
 * <p>Asserted, with bounds a loaded 2-core machine keeps: every honest message reaches the receiver, within
 * {@link #HONEST_P99_BOUND} at the 99th percentile (their latencies, from the publisher's publish to the receiver's
 * event, both JavaScript processes on this host, are printed: p50, p99 and the maximum of the 10); forged messages
 * reached the pairing ({@code waku_rln_proof_verification_total}) and were rejected as {@code invalid_proof}, and none
 * was accepted; the node's Netty direct memory stays under {@link #DIRECT_PEAK} and its heap after a full GC grows by
 * less than {@link #HEAP_GROWTH}; its CPU time over the flood stays under {@link #CPU_SHARE} of the wall time (on the
 * machine's two cores, with Netty's paranoid leak detector on). What became of the forged messages (verified and
 * rejected, ignored for the sender's budget, disconnects, the attacker's score, its dials) is printed; docs/rln.md,
 * "Under attack", has a run's figures.
 */
@Tag("process")
class RlnFloodNodeTest {
    private static final int RATE = 1_000;
    private static final int SECONDS = 19;
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Duration HONEST_P99_BOUND = Duration.ofSeconds(5);
    private static final double MIB = 1 << 20;
    static final double DIRECT_PEAK = 96 * MIB;
    static final double HEAP_GROWTH = 48 * MIB;
    /** Node CPU time over the flood's wall time: at most one of the machine's two cores. */
    static final double CPU_SHARE = 1.0;
    /** Published before the flood: the latencies to compare with. */
    private static final List<String> BASELINE = List.of("A1", "A2", "A3-a", "A3-b", "A4-0");
    /** Published during the flood. */
    private static final List<String> HONEST = List.of("A4-1", "A4-2", "A4-3", "A4-4", "A4-5", "A4-6", "A4-7", "A4-8",
            "A4-9", "A5");
    private static final List<String> WATCHED = List.of("jvm_memory_used_bytes", "waku_netty_direct_memory_used_bytes",
            "waku_netty_pooled_memory_bytes", "waku_process_rss_bytes", "waku_relay_inbound_pending",
            "waku_archive_pending");

    @TempDir
    Path dir;
    @RegisterExtension
    final Closer closer = new Closer();

    @Test
    void aThousandForgedProofsASecondCostTheNodeLittleAndHonestMessagesKeepArriving() throws Exception {
        Anvil chain = closer.keep(RlnNode.twnChain());
        JsPeer honest = closer.keep(RlnNode.gossipsubPeer("127.0.0.41", false));
        JsPeer receiver = closer.keep(RlnNode.gossipsubPeer("127.0.0.42", true));
        JsPeer attacker = closer.keep(RlnNode.gossipsubPeer("127.0.0.43", false));
        RlnNode node = closer.keep(RlnNode.start(dir, chain, RlnCases.EPOCH_E_NANOS + 200_000_000_000L,
                RlnNode.staticNodes(List.of(honest, receiver))));
        node.registerUpToSixty();
        attacker.call("dial", Map.of("addr", node.process.multiaddr().toString()), WAIT);
        node.awaitTopicPeer(honest);
        node.awaitTopicPeer(attacker);
        node.awaitInMesh(receiver);

        Case template = RlnCases.get("A4-0");
        List<Case> baselineCases = RlnCases.all(BASELINE.toArray(String[]::new));
        List<Case> honestCases = RlnCases.all(HONEST.toArray(String[]::new));
        List<Case> clockGroup = new ArrayList<>(baselineCases);
        clockGroup.addAll(honestCases);
        node.clock.moveTo(RlnCases.groupClock(clockGroup, 0));
        List<Double> baseline = new ArrayList<>();
        for (Case c : baselineCases) {
            baseline.add(latency(node, honest, receiver, c));
            Thread.sleep(1_000);
        }
        long floodEnds = node.clock.nowNanos() + Duration.ofSeconds(SECONDS).toNanos();
        assertThat(floodEnds).as("the forged messages keep a valid timestamp to the end")
                .isLessThan(template.deadlineNanos());

        HostilePeerFuzzTest.Memory before = HostilePeerFuzzTest.Memory.afterGc(node.process, node.metrics);
        String start = node.scrape();
        long startedNanos = System.nanoTime();
        CompletableFuture<JsonNode> flood = CompletableFuture.supplyAsync(() -> attacker.call("flood", Map.of(
                "topic", RlnCases.TOPIC, "data", template.base64(), "counterOffset", shareYOffset(template),
                "count", RATE * SECONDS, "perSecond", RATE, "redial", node.process.multiaddr().toString()),
                Duration.ofSeconds(SECONDS + 60)));
        List<Double> latencies = new ArrayList<>();
        List<Double> attackerScores = new ArrayList<>();
        NodeMemory.Sample peak;
        try (NodeMemory.Peaks peaks = new NodeMemory.Peaks(() -> node.scrape(WATCHED), 250)) {
            Thread.sleep(500);
            for (Case c : honestCases) {
                latencies.add(latency(node, honest, receiver, c));
                JsonNode seen = node.peer(attacker.peerId());
                if (seen.path("score").isNumber()) {
                    attackerScores.add(seen.path("score").asDouble());
                }
                Thread.sleep(1_200);
            }
            JsonNode flooded = flood.get(SECONDS + 60, TimeUnit.SECONDS);
            long wallNanos = System.nanoTime() - startedNanos;
            peak = peaks.peak();
            String end = node.scrape();
            double cpuSeconds = (sum(end, "process_cpu_time_ns_total") - sum(start, "process_cpu_time_ns_total")) / 1e9;
            report(flooded, start, end, attackerScores, cpuSeconds, wallNanos / 1e9, peak, peaks.samples());
            System.out.printf("RlnFloodNodeTest: honest latency before the flood, %d messages: p50 %.1f ms, "
                    + "max %.1f ms %s%n", baseline.size(), percentile(baseline, 50), Collections.max(baseline),
                    baseline);
            System.out.printf("RlnFloodNodeTest: honest latency during the flood, %d messages: p50 %.1f ms, "
                    + "p99 %.1f ms, max %.1f ms %s%n", latencies.size(), percentile(latencies, 50),
                    percentile(latencies, 99), Collections.max(latencies), latencies);

            assertThat(flooded.path("published").asInt()).as("forged messages the attacker got out").isPositive();
            assertThat(delta(start, end, "waku_rln_proof_verification_total")).as("pairings").isPositive();
            assertThat(delta(start, end, RlnCases.METER.get("invalid_proof"))).as("forged messages rejected")
                    .isPositive();
            assertThat(delta(start, end, RlnCases.METER.get("valid"))).as("valid messages: the honest ones only")
                    .isEqualTo(honestCases.size());
            assertThat(delta(start, end, "waku_rln_valid_messages_total")).as("valid messages, all shards")
                    .isEqualTo(honestCases.size());
            assertThat(percentile(latencies, 99)).as("the honest messages' p99, ms")
                    .isLessThan((double) HONEST_P99_BOUND.toMillis());
            assertThat(peak.direct()).as("Netty direct memory at its peak").isLessThan(DIRECT_PEAK);
            assertThat(cpuSeconds / (wallNanos / 1e9)).as("the node's CPU time over the flood's wall time")
                    .isLessThan(CPU_SHARE);
        }
        assertThat(receiver.events("message")).as("the receiver got the honest messages and nothing else")
                .hasSize(baselineCases.size() + honestCases.size());
        HostilePeerFuzzTest.Memory after = HostilePeerFuzzTest.Memory.afterGc(node.process, node.metrics);
        System.out.printf("RlnFloodNodeTest: after GC, before the flood %s; after it %s%n", before, after);
        assertThat(after.heap() - before.heap()).as("heap growth after GC").isLessThan(HEAP_GROWTH);
        assertThat(node.process.isAlive()).isTrue();
        node.assertNoLeaks();
    }

    /**
     * Publishes a valid case from the honest peer and returns how long it took to reach the receiver, in ms: from
     * the publisher's hand-over to gossipsub to the receiver's event, both clocks this host's.
     */
    private static double latency(RlnNode node, JsPeer honest, JsPeer receiver, Case c) {
        JsonNode sent = honest.call("publish", Map.of("topic", RlnCases.TOPIC, "data", c.base64()), WAIT);
        JsonNode got = receiver.awaitEvent("message", e -> e.path("data").asText().equals(c.base64()), WAIT);
        assertThat(node.clock.nowNanos()).as("%s validated within its timestamp's gap", c)
                .isLessThan(c.deadlineNanos());
        return got.path("at").asDouble() - sent.path("at").asDouble();
    }

    /** Where {@code share_y} (field 5 of the proof in field 21) sits in the message's bytes. */
    private static int shareYOffset(Case c) {
        byte[] proof = RlnVectors.protobufField(Unpooled.wrappedBuffer(c.message()), 21);
        byte[] shareY = RlnVectors.protobufField(Unpooled.wrappedBuffer(proof), 5);
        assertThat(shareY).hasSize(32);
        int at = -1;
        for (int i = 0; i + shareY.length <= c.message().length && at < 0; i++) {
            if (java.util.Arrays.equals(c.message(), i, i + shareY.length, shareY, 0, shareY.length)) {
                at = i;
            }
        }
        assertThat(at).as("share_y in the message").isNotNegative();
        return at;
    }

    private static void report(JsonNode flooded, String start, String end, List<Double> attackerScores,
                               double cpuSeconds, double wallSeconds, NodeMemory.Sample peak, int samples) {
        System.out.printf("RlnFloodNodeTest: the attacker published %d of %d forged messages in %.1f s (%d failed, "
                        + "%d dials again; errors %s)%n", flooded.path("published").asInt(), RATE * SECONDS,
                flooded.path("ms").asDouble() / 1000, flooded.path("failed").asInt(), flooded.path("redials").asInt(),
                flooded.path("errors"));
        System.out.printf("RlnFloodNodeTest: the node: pairings %.0f, rejected invalid_proof %.0f, ignored for the "
                        + "sender's budget %.0f, queue full %.0f, messages received from peers %.0f, disconnects "
                        + "rejected_messages %.0f, graylisted %.0f; peers by score band at the end %s%n",
                delta(start, end, "waku_rln_proof_verification_total"),
                delta(start, end, RlnCases.METER.get("invalid_proof")),
                delta(start, end, "waku_relay_validation_ignored_total{reason=\"peer_budget\"}"),
                delta(start, end, "waku_relay_validation_ignored_total{reason=\"queue_full\"}"),
                delta(start, end, "waku_relay_messages_received_total{source=\"peer\"}"),
                delta(start, end, "waku_relay_peer_disconnects_total{reason=\"rejected_messages\"}"),
                delta(start, end, "waku_relay_peer_disconnects_total{reason=\"graylisted\"}"),
                end.lines().filter(l -> l.startsWith("waku_relay_peers_by_score{")).toList());
        System.out.printf("RlnFloodNodeTest: the attacker's score as the node listed it while connected: %s%n",
                attackerScores);
        System.out.printf("RlnFloodNodeTest: node CPU %.1f s over %.1f s (%.0f %% of one core); peaks over %d samples: "
                + "%s%n", cpuSeconds, wallSeconds, 100 * cpuSeconds / wallSeconds, samples, peak);
    }

    /** The nearest-rank percentile. */
    static double percentile(List<Double> values, int p) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int rank = (int) Math.ceil(p / 100.0 * sorted.size());
        return sorted.get(Math.max(0, rank - 1));
    }

    private static double delta(String start, String end, String selector) {
        return sum(end, selector) - sum(start, selector);
    }

    private static double sum(String exposition, String selector) {
        return FuzzMetrics.sum(exposition, selector);
    }
}
