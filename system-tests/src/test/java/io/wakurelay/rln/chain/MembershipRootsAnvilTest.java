package io.wakurelay.rln.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.rln.RlnConfig;
import io.wakurelay.testkit.Anvil;
import io.wakurelay.testkit.Closer;
import io.wakurelay.testkit.Eventually;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The membership roots read from a real local Ethereum node (anvil) over real JSON-RPC, from our membership contract
 * for tests: deployed, or placed at The Waku Network's address on a chain with its id.
 */
@Tag("process")
class MembershipRootsAnvilTest {
    private static final Duration SOON = Duration.ofSeconds(10);

    @RegisterExtension
    final Closer closer = new Closer();

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final List<byte[]> vectors = ChainVectors.roots();

    private static BigInteger uint(byte[] rootLe) {
        return ChainVectors.uint256(rootLe);
    }

    private MembershipRootsConfigBuilder config(Anvil anvil, String contract) {
        return MembershipRootsConfig.builder().ethClientAddresses(List.of(anvil.rpcUri())).ethContractAddress(contract)
                .chainId(anvil.chainId()).startAttempts(1);
    }

    private MembershipRoots start(MembershipRootsConfig config) {
        return closer.keep(MembershipRoots.start(config, registry));
    }

    private double memberships() {
        return registry.get("waku.rln.number.registered.memberships").gauge().value();
    }

    private double count(String name, String tag, String value) {
        return registry.get(name).tag(tag, value).counter().count();
    }

    @Test
    void rootsAreTrackedAsTheyChangeOnChain() {
        Anvil anvil = closer.keep(Anvil.start(Anvil.ANVIL_CHAIN_ID));
        String contract = anvil.deployMembershipContract();
        anvil.register(contract, uint(vectors.get(0)));
        MembershipRoots roots = start(config(anvil, contract).pollInterval(Duration.ofMillis(200)).build());
        assertThat(roots.ready()).isTrue();
        assertThat(roots.contains(vectors.get(0))).isTrue();
        anvil.register(contract, uint(vectors.get(1)));
        anvil.register(contract, uint(vectors.get(2)));
        Eventually.until("the newest root is held", SOON, () -> roots.contains(vectors.get(2)));
        assertThat(roots.contains(vectors.get(0))).isTrue();
        Eventually.until("the count follows the root", SOON, () -> memberships() == 3);
        assertThat(roots.chainId()).isEqualTo(Anvil.ANVIL_CHAIN_ID);
    }

    @Test
    void ofSixtyRootsPushedTheWindowHoldsTheLastFifty() {
        Anvil anvil = closer.keep(Anvil.start(Anvil.ANVIL_CHAIN_ID));
        String contract = anvil.deployMembershipContract();
        anvil.register(contract, uint(vectors.get(0)));
        MembershipRoots roots = start(config(anvil, contract).pollInterval(Duration.ofHours(1))
                .unknownRootRefreshInterval(Duration.ZERO).build());
        for (int i = 1; i < 60; i++) {
            byte[] root = vectors.get(i);
            anvil.register(contract, uint(root));
            roots.onUnknownRoot();
            Eventually.until("root " + (i + 1) + " is held", SOON, () -> {
                roots.onUnknownRoot();
                return roots.contains(root);
            });
        }
        assertThat(roots.roots()).containsExactlyElementsOf(vectors.subList(10, 60));
        for (int i = 0; i < 10; i++) {
            assertThat(roots.contains(vectors.get(i))).as("root after registration %d", i + 1).isFalse();
        }
        Eventually.until("the count follows the roots", SOON, () -> memberships() == 60);
    }

    @Test
    void anUnknownRootIsReadWithinTheRefreshIntervalAndAFloodMakesAtMostOneReadPerInterval() throws Exception {
        Anvil anvil = closer.keep(Anvil.start(Anvil.ANVIL_CHAIN_ID));
        String contract = anvil.deployMembershipContract();
        anvil.register(contract, uint(vectors.get(0)));
        MembershipRoots roots = start(config(anvil, contract).pollInterval(Duration.ofHours(1)).build());

        anvil.register(contract, uint(vectors.get(1)));
        long asked = System.nanoTime();
        roots.onUnknownRoot();
        Eventually.until("the unknown root is read", Duration.ofSeconds(2), () -> roots.contains(vectors.get(1)));
        assertThat(Duration.ofNanos(System.nanoTime() - asked)).isLessThan(Duration.ofSeconds(2));

        anvil.register(contract, uint(vectors.get(2)));
        double before = count("waku.rln.root.reads", "trigger", "unknown_root");
        Thread[] flood = new Thread[2];
        for (int t = 0; t < flood.length; t++) {
            flood[t] = new Thread(() -> {
                while (System.nanoTime() - asked < 4_500_000_000L) {
                    roots.onUnknownRoot();
                    java.util.concurrent.locks.LockSupport.parkNanos(20_000);
                }
            }, "unknown-root-flood-" + t);
            flood[t].start();
        }
        Thread.sleep(1000);
        assertThat(roots.contains(vectors.get(2))).as("no read within 2 s of the last one").isFalse();
        Eventually.until("the next read, 2 s after the first", Duration.ofSeconds(3), () -> roots.contains(vectors.get(2)));
        for (Thread t : flood) {
            t.join();
        }
        double reads = count("waku.rln.root.reads", "trigger", "unknown_root") - before;
        assertThat(reads).as("reads asked for by a flood from 1 s to 4.5 s after the first").isBetween(1.0, 2.0);
    }

    @Test
    void whileAnvilIsDownTheWindowIsKeptAndEachChangeOfStateIsLoggedOnce() {
        Anvil anvil = Anvil.start(Anvil.ANVIL_CHAIN_ID);
        int port = anvil.port();
        String contract = anvil.deployMembershipContract();
        anvil.register(contract, uint(vectors.get(0)));
        try (LogCapture log = new LogCapture()) {
            MembershipRoots roots = start(config(anvil, contract).pollInterval(Duration.ofMillis(200)).build());
            anvil.register(contract, uint(vectors.get(1)));
            Eventually.until("the second root is held", SOON, () -> roots.contains(vectors.get(1)));
            anvil.close();
            Eventually.until("several polls failed", SOON,
                    () -> count("waku.rln.rpc.errors", "reason", "connection") >= 5);
            assertThat(roots.roots()).containsExactly(vectors.get(0), vectors.get(1));
            assertThat(roots.ready()).isTrue();
            assertThat(log.lines(Level.WARN, "cannot read the membership roots")).hasSize(1);

            Anvil again = closer.keep(Anvil.start(Anvil.ANVIL_CHAIN_ID, port));
            again.placeMembershipContract(contract);
            again.register(contract, uint(vectors.get(2)));
            Eventually.until("the root of the restarted chain is held", SOON, () -> roots.contains(vectors.get(2)));
            assertThat(roots.roots()).containsExactly(vectors.get(0), vectors.get(1), vectors.get(2));
            Eventually.until("one line says the roots are read again", SOON,
                    () -> log.lines(Level.INFO, "read again").size() == 1);
            assertThat(log.lines(Level.WARN, "cannot read the membership roots")).hasSize(1);
        }
    }

    @Test
    void aChainIdOtherThanTheConfiguredOneStopsTheStart() {
        Anvil anvil = closer.keep(Anvil.start(Anvil.ANVIL_CHAIN_ID));
        String contract = anvil.deployMembershipContract();
        anvil.register(contract, uint(vectors.get(0)));
        assertThatThrownBy(() -> start(config(anvil, contract).chainId(Anvil.TWN_CHAIN_ID).build()))
                .isInstanceOf(ChainStartException.class)
                .hasMessage("--rln-relay-chain-id is 59141 but the eth client at http://127.0.0.1:" + anvil.port()
                        + " is on chain 31337");
        assertThat(registry.getMeters()).isEmpty();
    }

    @Test
    void withTheFirstEndpointDownTheSecondIsRead() {
        Anvil anvil = closer.keep(Anvil.start(Anvil.ANVIL_CHAIN_ID));
        String contract = anvil.deployMembershipContract();
        anvil.register(contract, uint(vectors.get(0)));
        URI down = URI.create("http://127.0.0.1:" + freePort() + "/");
        MembershipRoots roots = start(config(anvil, contract).ethClientAddresses(List.of(down, anvil.rpcUri()))
                .pollInterval(Duration.ofMillis(200)).build());
        assertThat(roots.contains(vectors.get(0))).isTrue();
        anvil.register(contract, uint(vectors.get(1)));
        Eventually.until("the next root is read from the second endpoint", SOON, () -> roots.contains(vectors.get(1)));
        assertThat(count("waku.rln.rpc.errors", "reason", "connection")).isEqualTo(1);
    }

    @Test
    void theContractAtTheWakuNetworksAddressOnChain59141ReadsCorrectly() {
        Anvil anvil = closer.keep(Anvil.start(Anvil.TWN_CHAIN_ID));
        anvil.placeMembershipContract(Anvil.TWN_CONTRACT);
        anvil.register(Anvil.TWN_CONTRACT, uint(vectors.get(0)));
        RlnConfig twn = RlnConfig.builder().ethClientAddresses(List.of(anvil.rpcUri()))
                .ethContractAddress(Anvil.TWN_CONTRACT).chainId(Anvil.TWN_CHAIN_ID).build();
        MembershipRoots roots = start(twn.membershipRoots());
        assertThat(roots.chainId()).isEqualTo(59141);
        assertThat(roots.contains(vectors.get(0))).isTrue();
        assertThat(memberships()).isEqualTo(1);

        // The storage layout the contract documents: slot 0 the root, slot 1 nextFreeIndex in its low 4 bytes
        anvil.setStorageAt(Anvil.TWN_CONTRACT, BigInteger.ONE, BigInteger.valueOf(42));
        anvil.setStorageAt(Anvil.TWN_CONTRACT, BigInteger.ZERO, uint(vectors.get(7)));
        assertThat(anvil.callUint(Anvil.TWN_CONTRACT, "root()")).isEqualTo(uint(vectors.get(7)));
        assertThat(anvil.callUint(Anvil.TWN_CONTRACT, "nextFreeIndex()")).isEqualTo(BigInteger.valueOf(42));
        roots.onUnknownRoot();
        Eventually.until("the root written into storage is held", SOON, () -> roots.contains(vectors.get(7)));
        Eventually.until("the count written into storage is read", SOON, () -> memberships() == 42);
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
