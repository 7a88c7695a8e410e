package io.wakurelay.rln.chain;

import static io.wakurelay.rln.chain.VirtualChain.A;
import static io.wakurelay.rln.chain.VirtualChain.B;
import static io.wakurelay.rln.chain.VirtualChain.TWN_CHAIN;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Eth clients that fail: the window kept, the failures counted, one log line per change, the next endpoint read. */
class RootReadFailuresTest {
    private final VirtualChain chain = new VirtualChain();
    private final List<byte[]> vectors = chain.vectors;
    private final LogCapture log = new LogCapture();

    @AfterEach
    void close() {
        log.close();
        chain.close();
    }

    @Test
    void whileTheEthClientIsDownTheWindowIsKeptAndEachChangeOfStateIsLoggedOnce() {
        FakeEthRpc.Node node = chain.rpc.add(A, TWN_CHAIN);
        node.register(vectors.get(0));
        node.register(vectors.get(1));
        MembershipRoots roots = chain.start(A);
        node.down = RpcFailure.CONNECTION;
        chain.advance(Duration.ofMinutes(1));
        assertThat(roots.contains(vectors.get(1))).isTrue();
        assertThat(roots.ready()).as("the window is kept").isTrue();
        assertThat(roots.health()).isEqualTo("Ready");
        assertThat(chain.count("waku.rln.rpc.errors", "reason", "connection")).isEqualTo(12);
        List<String> warnings = log.lines(Level.WARN, "cannot read the membership roots");
        assertThat(warnings).hasSize(1);
        assertThat(warnings.get(0)).contains("the connection failed", "keeping the roots held", " roots=1",
                " pollMs=5000");

        node.down = null;
        node.register(vectors.get(2));
        chain.advance(Duration.ofSeconds(5));
        assertThat(roots.roots()).containsExactly(vectors.get(1), vectors.get(2));
        assertThat(log.lines(Level.INFO, "read again")).hasSize(1);
        assertThat(log.lines(Level.INFO, "read again").get(0)).contains("failedReads=12 failingSeconds=60");
        chain.advance(Duration.ofMinutes(1));
        assertThat(log.lines()).as("nothing logged while reading works").hasSize(warnings.size() + 2);

        node.down = RpcFailure.TIMEOUT;
        chain.advance(Duration.ofSeconds(30));
        assertThat(log.lines(Level.WARN, "cannot read the membership roots")).hasSize(2);
        assertThat(chain.count("waku.rln.rpc.errors", "reason", "timeout")).isEqualTo(6);
    }

    @Test
    void whenTheFirstEndpointIsDownTheNextOneIsReadAndKeptWithoutAskingTheFirstAgain() {
        FakeEthRpc.Node first = chain.rpc.add(A, TWN_CHAIN);
        first.down = RpcFailure.CONNECTION;
        FakeEthRpc.Node second = chain.rpc.add(B, TWN_CHAIN);
        second.register(vectors.get(0));
        MembershipRoots roots = chain.start(A, B);
        assertThat(roots.ready()).isTrue();
        chain.advance(Duration.ofSeconds(50));
        assertThat(first.chainIdCalls.get()).as("asked once, at start").isEqualTo(1);
        assertThat(first.rootCalls.get()).isZero();
        assertThat(second.rootCalls.get()).isEqualTo(11);
        assertThat(log.lines(Level.WARN, "")).isEmpty();
    }

    @Test
    void whenTheCurrentEndpointFailsTheNextOneIsReadAndTheSwitchIsLoggedOnce() {
        FakeEthRpc.Node first = chain.rpc.add(A, TWN_CHAIN);
        first.register(vectors.get(0));
        FakeEthRpc.Node second = chain.rpc.add(B, TWN_CHAIN);
        second.register(vectors.get(0));
        MembershipRoots roots = chain.start(A, B);
        first.down = RpcFailure.HTTP_STATUS;
        second.register(vectors.get(1));
        chain.advance(Duration.ofSeconds(5));
        assertThat(roots.contains(vectors.get(1))).isTrue();
        chain.advance(Duration.ofSeconds(20));
        List<String> switches = log.lines(Level.INFO, "reading the membership contract from");
        assertThat(switches).hasSize(1);
        assertThat(switches.get(0)).contains("address=http://127.0.0.2:8545 ", "http://127.0.0.1:8545 failed",
                "an HTTP error status").doesNotContain("an-api-key");
        assertThat(first.rootCalls.get()).as("the failed endpoint is not asked again while the next one works")
                .isEqualTo(2);
        assertThat(log.lines(Level.WARN, "")).as("reading never failed as a whole").isEmpty();
        assertThat(chain.count("waku.rln.rpc.errors", "reason", "http_status")).isEqualTo(1);
    }

    @Test
    void anEndpointOnAnotherChainIsNeverRead() {
        FakeEthRpc.Node first = chain.rpc.add(A, TWN_CHAIN);
        first.register(vectors.get(0));
        FakeEthRpc.Node other = chain.rpc.add(B, 1);
        other.register(vectors.get(5));
        MembershipRoots roots = chain.start(A, B);
        first.down = RpcFailure.CONNECTION;
        chain.advance(Duration.ofSeconds(5));
        assertThat(other.rootCalls.get()).isZero();
        assertThat(roots.contains(vectors.get(5))).isFalse();
        assertThat(chain.count("waku.rln.rpc.errors", "reason", "wrong_chain")).isEqualTo(1);
        assertThat(log.lines(Level.WARN, "cannot read the membership roots")).singleElement().asString()
                .contains("chain 1, not 59141");
    }

    @Test
    void anEndpointIsCheckedAgainAfterItFailedBeforeItIsReadAgain() {
        FakeEthRpc.Node node = chain.rpc.add(A, TWN_CHAIN);
        node.register(vectors.get(0));
        chain.start(A);
        int checks = node.chainIdCalls.get();
        node.callsFail = RpcFailure.RPC_ERROR;
        chain.advance(Duration.ofSeconds(5));
        node.callsFail = null;
        node.chainId = 1; // restarted as another chain
        chain.advance(Duration.ofSeconds(5));
        assertThat(node.chainIdCalls.get()).isEqualTo(checks + 1);
        assertThat(chain.count("waku.rln.rpc.errors", "reason", "wrong_chain")).isEqualTo(1);
    }

    @Test
    void aFailingNextFreeIndexLeavesTheRootsTrackedAndIsReadAgainAtEveryPoll() {
        FakeEthRpc.Node node = chain.rpc.add(A, TWN_CHAIN);
        node.register(vectors.get(0));
        MembershipRoots roots = chain.start(A);
        node.countFails = RpcFailure.RPC_ERROR;
        node.register(vectors.get(1));
        chain.advance(Duration.ofSeconds(5));
        assertThat(roots.contains(vectors.get(1))).isTrue();
        assertThat(chain.gauge("waku.rln.number.registered.memberships")).isEqualTo(1);
        int countCalls = node.countCalls.get();
        chain.advance(Duration.ofSeconds(10));
        assertThat(node.countCalls.get()).isEqualTo(countCalls + 2);
        assertThat(log.lines(Level.WARN, "cannot read nextFreeIndex()")).hasSize(1);
        node.countFails = null;
        chain.advance(Duration.ofSeconds(5));
        assertThat(chain.gauge("waku.rln.number.registered.memberships")).isEqualTo(2);
        assertThat(log.lines(Level.INFO, "nextFreeIndex() read again")).hasSize(1);
        assertThat(log.lines(Level.WARN, "cannot read the membership roots")).isEmpty();
    }

    @Test
    void aMalformedRootIsAFailedReadThatChangesNothing() {
        FakeEthRpc.Node node = chain.rpc.add(A, TWN_CHAIN);
        node.register(vectors.get(0));
        MembershipRoots roots = chain.start(A);
        node.callsFail = RpcFailure.MALFORMED;
        chain.advance(Duration.ofSeconds(5));
        assertThat(roots.roots()).containsExactly(vectors.get(0));
        assertThat(chain.count("waku.rln.rpc.errors", "reason", "malformed")).isEqualTo(1);
    }
}
