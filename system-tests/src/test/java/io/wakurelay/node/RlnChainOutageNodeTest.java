package io.wakurelay.node;

import io.wakurelay.node.RlnCases.Case;
import io.wakurelay.testkit.Anvil;
import io.wakurelay.testkit.Closer;
import io.wakurelay.testkit.Eventually;
import io.wakurelay.testkit.JsPeer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The chain's endpoint down and back under a running node of The Waku Network ({@link RlnNode}): while anvil is
 * stopped the node keeps its window of roots and goes on validating (valid messages naming a root it holds are
 * accepted, relayed and archived), counts the failed reads and shows the age of its last good read growing, with one
 * WARN line; {@code /health}'s {@code Rln Relay} line stays ready, since roots are held (issue 40: not ready only
 * while none is). Once anvil is back on the same port the node reads again at its next poll, with one INFO line.
 */
@Tag("process")
class RlnChainOutageNodeTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path dir;
    @RegisterExtension
    final Closer closer = new Closer();

    @Test
    void whileTheChainIsDownTheWindowIsKeptAndValidMessagesAreAcceptedThenTheNodeReadsAgain() {
        Anvil chain = closer.keep(RlnNode.twnChain()); // closed twice: by the test, then by the closer
        int port = chain.port();
        JsPeer publisher = closer.keep(RlnNode.gossipsubPeer("127.0.0.31", false));
        JsPeer receiver = closer.keep(RlnNode.gossipsubPeer("127.0.0.32", true));
        RlnNode node = closer.keep(RlnNode.start(dir, chain, RlnCases.EPOCH_E_NANOS + 200_000_000_000L,
                RlnNode.staticNodes(List.of(publisher, receiver))));
        node.registerUpToSixty();
        node.awaitTopicPeer(publisher);
        node.awaitInMesh(receiver);

        chain.close();
        double before = node.metric("waku_rln_rpc_errors_total{reason=\"connection\"}");
        Eventually.until("two polls failed", WAIT,
                () -> node.metric("waku_rln_rpc_errors_total{reason=\"connection\"}") >= before + 2);
        assertThat(node.metric("waku_rln_root_read_age_seconds")).as("the last good read is 2 polls old")
                .isGreaterThan(5);
        assertThat(node.metric("waku_rln_root_window_size")).as("the window is kept").isEqualTo(2);
        assertThat(node.rlnHealth()).as("/health: %s", node.rest.get("/health").body()).isEqualTo("READY");
        assertThat(warnings(node)).hasSize(1);

        // valid messages naming either root held are accepted, relayed and archived while the chain is away
        List<Case> valid = RlnCases.all("A4-0", "A4-1", "A4-2", "A5");
        Case unknown = RlnCases.get("R4-unregistered");
        List<Case> group = new ArrayList<>(valid);
        group.add(unknown);
        node.clock.moveTo(RlnCases.groupClock(group, 0));
        for (Case c : valid) {
            publisher.call("publish", Map.of("topic", RlnCases.TOPIC, "data", c.base64()), WAIT);
            receiver.awaitEvent("message", e -> e.path("data").asText().equals(c.base64()), WAIT);
        }
        publisher.call("publish", Map.of("topic", RlnCases.TOPIC, "data", unknown.base64()), WAIT);
        Eventually.until("the unknown root is counted", WAIT,
                () -> node.metric(RlnCases.METER.get("invalid_root")) == 1);
        assertThat(node.metric(RlnCases.METER.get("valid"))).isEqualTo(valid.size());
        assertThat(node.clock.nowNanos()).as("validated within the cases' timestamp gap").isLessThan(
                group.stream().mapToLong(Case::deadlineNanos).min().orElseThrow());
        Eventually.until("archived while the chain is down", WAIT, () -> node.rest.get(
                "/store/v3/messages?includeData=false&hashes=" + String.join(",", valid.stream()
                        .map(c -> c.hash().toString()).toList())).json().path("messages").size() == valid.size());
        assertThat(node.metric("waku_rln_root_reads_total{trigger=\"unknown_root\"}"))
                .as("the unknown root asked for a read, which failed").isPositive();

        // back on the same port, with a root the node has not seen: read at the next poll
        Anvil again = closer.keep(Anvil.start(Anvil.TWN_CHAIN_ID, port));
        again.placeMembershipContract(Anvil.TWN_CONTRACT);
        again.setState(Anvil.TWN_CONTRACT, RlnCases.rootAfter(59), 59);
        Eventually.until("the node reads the chain again", WAIT,
                () -> node.metric("waku_rln_root_window_size") == 3
                        && node.metric("waku_rln_number_registered_memberships") == 59);
        assertThat(node.metric("waku_rln_root_read_age_seconds")).isLessThan(6);
        Eventually.until("one INFO line says so", WAIT, () -> node.process.output().stream().filter(l ->
                l.contains(" INFO ") && l.contains("RLN: the membership roots are read again")).count() == 1);
        assertThat(warnings(node)).hasSize(1);
        node.assertNoLeaks();
    }

    private static List<String> warnings(RlnNode node) {
        return node.process.output().stream().filter(l -> l.contains(" WARN ")
                && l.contains("RLN: cannot read the membership roots")).toList();
    }
}
