package io.wakurelay.rln.chain;

import static io.wakurelay.rln.chain.VirtualChain.A;
import static io.wakurelay.rln.chain.VirtualChain.CONTRACT;
import static io.wakurelay.rln.chain.VirtualChain.TWN_CHAIN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import io.micrometer.core.instrument.Meter;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Start, the window, the polls, the refresh on an unknown root, the meters and the stop, on virtual time. */
class MembershipRootsTest {
    private final VirtualChain chain = new VirtualChain();
    private final List<byte[]> vectors = chain.vectors;

    @AfterEach
    void close() {
        chain.close();
    }

    @Test
    void theStartReadsTheFirstRootAndTheMembershipCountBeforeItReturns() {
        chain.rpc.add(A, TWN_CHAIN).register(vectors.get(0));
        MembershipRoots roots = chain.start(A);
        assertThat(roots.ready()).isTrue();
        assertThat(roots.health()).isEqualTo("Ready");
        assertThat(roots.contains(vectors.get(0))).isTrue();
        assertThat(roots.contains(vectors.get(1))).isFalse();
        assertThat(roots.chainId()).isEqualTo(TWN_CHAIN);
        assertThat(chain.gauge("waku.rln.number.registered.memberships")).isEqualTo(1);
        assertThat(chain.count("waku.rln.root.reads", "trigger", "start")).isEqualTo(1);
        assertThat(chain.gauge("waku.rln.root.window.size")).isEqualTo(1);
    }

    @Test
    void aNewRootOnChainIsHeldAfterTheNextPollAndTheCountFollowsIt() {
        FakeEthRpc.Node node = chain.rpc.add(A, TWN_CHAIN);
        node.register(vectors.get(0));
        MembershipRoots roots = chain.start(A);
        node.register(vectors.get(1));
        chain.advance(Duration.ofMillis(4999));
        assertThat(roots.contains(vectors.get(1))).isFalse();
        chain.advance(Duration.ofMillis(1));
        assertThat(roots.contains(vectors.get(1))).isTrue();
        assertThat(roots.contains(vectors.get(0))).as("the previous root stays in the window").isTrue();
        assertThat(chain.gauge("waku.rln.number.registered.memberships")).isEqualTo(2);
        assertThat(chain.count("waku.rln.root.reads", "trigger", "poll")).isEqualTo(1);
    }

    @Test
    void aRootThatDidNotChangeCostsOneCallAPoll() {
        FakeEthRpc.Node node = chain.rpc.add(A, TWN_CHAIN);
        node.register(vectors.get(0));
        chain.start(A);
        int countCalls = node.countCalls.get();
        chain.advance(Duration.ofSeconds(50));
        assertThat(node.rootCalls.get()).isEqualTo(11);
        assertThat(node.countCalls.get()).as("nextFreeIndex() is read only when the root changed")
                .isEqualTo(countCalls);
    }

    @Test
    void ofSixtyRootsTheWindowHoldsTheLastFifty() {
        FakeEthRpc.Node node = chain.rpc.add(A, TWN_CHAIN);
        node.register(vectors.get(0));
        MembershipRoots roots = chain.start(A);
        for (int i = 1; i < 60; i++) {
            node.register(vectors.get(i));
            chain.advance(Duration.ofSeconds(5));
            assertThat(chain.gauge("waku.rln.root.window.size")).isEqualTo(Math.min(i + 1, 50));
        }
        for (int i = 0; i < 60; i++) {
            assertThat(roots.contains(vectors.get(i))).as("root after registration %d", i + 1).isEqualTo(i >= 10);
        }
        assertThat(roots.roots()).containsExactlyElementsOf(vectors.subList(10, 60));
        assertThat(chain.gauge("waku.rln.number.registered.memberships")).isEqualTo(60);
    }

    @Test
    void anUnknownRootIsReadAtOnceAndAgainOnlyAfterTheRefreshInterval() {
        FakeEthRpc.Node node = chain.rpc.add(A, TWN_CHAIN);
        node.register(vectors.get(0));
        MembershipRoots roots = chain.start(A);
        node.register(vectors.get(1));
        roots.onUnknownRoot();
        assertThat(roots.contains(vectors.get(1))).as("read at once, no poll yet").isTrue();

        node.register(vectors.get(2));
        chain.advance(Duration.ofMillis(1999));
        roots.onUnknownRoot();
        assertThat(roots.contains(vectors.get(2))).as("within 2 s of the last refresh").isFalse();
        chain.advance(Duration.ofMillis(1));
        roots.onUnknownRoot();
        assertThat(roots.contains(vectors.get(2))).isTrue();
        assertThat(chain.count("waku.rln.root.reads", "trigger", "unknown_root")).isEqualTo(2);
    }

    @Test
    void aFloodOfUnknownRootsMakesAtMostOneReadPerRefreshInterval() {
        FakeEthRpc.Node node = chain.rpc.add(A, TWN_CHAIN);
        node.register(vectors.get(0));
        MembershipRoots roots = chain.start(chain.configOf(A).toBuilder().pollInterval(Duration.ofHours(1)).build());
        int before = node.rootCalls.get();
        for (int ms = 0; ms < 10_000; ms += 10) {
            for (int i = 0; i < 10; i++) {
                roots.onUnknownRoot();
            }
            chain.advance(Duration.ofMillis(10));
        }
        assertThat(node.rootCalls.get() - before).as("10,000 unknown roots over 10 s").isEqualTo(5);
        assertThat(chain.count("waku.rln.root.reads", "trigger", "unknown_root")).isEqualTo(5);
    }

    @Test
    void aRefreshIntervalOfZeroStillQueuesOneReadAtATime() {
        FakeEthRpc.Node node = chain.rpc.add(A, TWN_CHAIN);
        node.register(vectors.get(0));
        MembershipRoots roots = chain.start(chain.configOf(A).toBuilder().pollInterval(Duration.ofHours(1))
                .unknownRootRefreshInterval(Duration.ZERO).build());
        int before = node.rootCalls.get();
        roots.onUnknownRoot();
        roots.onUnknownRoot();
        assertThat(node.rootCalls.get() - before).isEqualTo(2); // each read ran before the next was asked for
    }

    @Test
    void aChainIdOtherThanTheConfiguredOneStopsTheStartWithOneLineNamingTheFlagAndBothIds() {
        chain.rpc.add(A, 31337).register(vectors.get(0));
        assertThatThrownBy(() -> chain.start(A)).isInstanceOf(ChainStartException.class)
                .hasMessage("--rln-relay-chain-id is 59141 but the eth client at http://127.0.0.1:8545 is on chain"
                        + " 31337");
        assertThat(chain.rpc.closed).isTrue();
        assertThat(chain.registry.getMeters()).as("the meters of a failed start are removed").isEmpty();
    }

    @Test
    void withoutAChainIdTheEndpointsChainIsTakenAndAWarningSaysSo() {
        chain.rpc.add(A, 31337).register(vectors.get(0));
        try (LogCapture log = new LogCapture()) {
            MembershipRoots roots = chain.start(chain.configOf(A).toBuilder().chainId(0).build());
            assertThat(roots.chainId()).isEqualTo(31337);
            assertThat(log.lines(Level.WARN, "--rln-relay-chain-id is not set")).hasSize(1);
        }
    }

    @Test
    void theStartAsksForTheChainIdAgainAndGivesUpNamingTheFlag() {
        FakeEthRpc.Node node = chain.rpc.add(A, TWN_CHAIN);
        node.down = RpcFailure.CONNECTION;
        long start = chain.time.now(java.util.concurrent.TimeUnit.SECONDS);
        assertThatThrownBy(() -> chain.start(A)).isInstanceOf(ChainStartException.class)
                .hasMessageContaining("--rln-relay-eth-client-address").hasMessageContaining("3 attempts")
                .hasMessageContaining("http://127.0.0.1:8545");
        assertThat(node.chainIdCalls.get()).isEqualTo(3);
        assertThat(chain.time.now(java.util.concurrent.TimeUnit.SECONDS) - start).isEqualTo(8);
        assertThat(chain.rpc.closed).isTrue();
    }

    @Test
    void theStartWaitsForAnEthClientThatComesUp() {
        FakeEthRpc.Node node = chain.rpc.add(A, TWN_CHAIN);
        node.register(vectors.get(0));
        node.down = RpcFailure.TIMEOUT;
        MembershipRoots roots = MembershipRoots.start(chain.configOf(A), chain.registry, chain.rpc, chain.time, null,
                () -> chain.time.now(java.util.concurrent.TimeUnit.NANOSECONDS), d -> node.down = null);
        chain.roots = roots;
        assertThat(roots.ready()).isTrue();
        assertThat(node.chainIdCalls.get()).isEqualTo(2);
    }

    @Test
    void noContractAtTheAddressStopsTheStartNamingTheFlag() {
        chain.rpc.add(A, TWN_CHAIN);
        assertThatThrownBy(() -> chain.start(A)).isInstanceOf(ChainStartException.class)
                .hasMessageContaining("no contract at " + CONTRACT + " on chain 59141 answers root()")
                .hasMessageContaining("--rln-relay-eth-contract-address");
    }

    @Test
    void neitherAnEndpointNorAContractGivenStopsTheStart() {
        assertThatThrownBy(() -> chain.start(chain.configOf().toBuilder().ethClientAddresses(List.of()).build()))
                .isInstanceOf(ChainStartException.class).hasMessageContaining("--rln-relay-eth-client-address");
        assertThatThrownBy(() -> chain.start(chain.configOf(A).toBuilder().ethContractAddress("").build()))
                .isInstanceOf(ChainStartException.class).hasMessageContaining("--rln-relay-eth-contract-address");
    }

    @Test
    void aFirstReadThatFailsStartsTheNodeNotReadyUntilARootIsRead() {
        FakeEthRpc.Node node = chain.rpc.add(A, TWN_CHAIN);
        node.register(vectors.get(0));
        node.callsFail = RpcFailure.RPC_ERROR;
        MembershipRoots roots = chain.start(A);
        assertThat(roots.ready()).isFalse();
        assertThat(roots.health()).startsWith("no membership root read from the chain yet: a JSON-RPC error");
        assertThat(roots.contains(vectors.get(0))).isFalse();
        node.callsFail = null;
        chain.advance(Duration.ofSeconds(5));
        assertThat(roots.ready()).isTrue();
        assertThat(roots.health()).isEqualTo("Ready");
    }

    @Test
    void everyLabelIsRegisteredAtStartAndEveryMeterRemovedAtClose() {
        chain.rpc.add(A, TWN_CHAIN).register(vectors.get(0));
        MembershipRoots roots = chain.start(A);
        for (RpcFailure failure : RpcFailure.values()) {
            assertThat(chain.count("waku.rln.rpc.errors", "reason", failure.label())).isZero();
        }
        for (String trigger : List.of("start", "poll", "unknown_root")) {
            assertThat(chain.registry.get("waku.rln.root.reads").tag("trigger", trigger).counter()).isNotNull();
        }
        assertThat(chain.registry.getMeters().stream().map(m -> m.getId().getName()).distinct().sorted())
                .containsExactly("waku.rln.number.registered.memberships", "waku.rln.root.read.age",
                        "waku.rln.root.reads", "waku.rln.root.window.size", "waku.rln.rpc.errors");
        roots.close();
        assertThat(chain.registry.getMeters()).extracting(Meter::getId).isEmpty();
    }

    @Test
    void theAgeOfTheLastGoodReadGrowsOnlyWhileReadsFail() {
        FakeEthRpc.Node node = chain.rpc.add(A, TWN_CHAIN);
        node.register(vectors.get(0));
        chain.start(A);
        chain.advance(Duration.ofSeconds(12));
        assertThat(chain.gauge("waku.rln.root.read.age")).isEqualTo(2.0);
        node.down = RpcFailure.CONNECTION;
        chain.advance(Duration.ofSeconds(20));
        assertThat(chain.gauge("waku.rln.root.read.age")).isEqualTo(22.0);
    }

    @Test
    void theWindowAndAgeGaugesStayReadableAfterGarbageCollections() {
        chain.rpc.add(A, TWN_CHAIN).register(vectors.get(0));
        chain.start(A);
        collectGarbage();
        assertThat(chain.gauge("waku.rln.root.window.size")).isEqualTo(1);
        assertThat(chain.gauge("waku.rln.root.read.age")).isNotNaN();
    }

    @Test
    void afterCloseNothingIsReadAndTheClientIsReleased() {
        FakeEthRpc.Node node = chain.rpc.add(A, TWN_CHAIN);
        node.register(vectors.get(0));
        MembershipRoots roots = chain.start(A);
        roots.shutdown(Duration.ofSeconds(1)).block(Duration.ofSeconds(5));
        int calls = node.rootCalls.get();
        chain.advance(Duration.ofMinutes(1));
        roots.onUnknownRoot();
        assertThat(node.rootCalls.get()).isEqualTo(calls);
        assertThat(chain.rpc.closed).isTrue();
        assertThat(roots.contains(vectors.get(0))).as("the window stays readable").isTrue();
    }

    /**
     * Garbage collections until an object held only weakly is gone: a meter whose object Micrometer holds weakly has
     * lost it by then too.
     */
    static void collectGarbage() {
        WeakReference<Object> sentinel = new WeakReference<>(new Object());
        for (int i = 0; i < 100 && sentinel.get() != null; i++) {
            System.gc();
            LockSupport.parkNanos(10_000_000);
        }
        assertThat(sentinel.get()).as("collected").isNull();
    }
}
