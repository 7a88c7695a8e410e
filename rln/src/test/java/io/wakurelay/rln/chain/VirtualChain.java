package io.wakurelay.rln.chain;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import reactor.test.scheduler.VirtualTimeScheduler;

/**
 * {@link MembershipRoots} on virtual time with eth clients in memory ({@link FakeEthRpc}): scheduled reads run when
 * a test advances the clock, on the test's thread.
 */
final class VirtualChain implements AutoCloseable {
    static final String CONTRACT = "0xB9cd878C90E49F797B4431fBF4fb333108CB90e6";
    static final long TWN_CHAIN = 59141;
    static final URI A = URI.create("http://127.0.0.1:8545/");
    static final URI B = URI.create("http://127.0.0.2:8545/v3/an-api-key");

    final VirtualTimeScheduler time = VirtualTimeScheduler.create();
    final FakeEthRpc rpc = new FakeEthRpc();
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final List<byte[]> vectors = ChainVectors.roots();
    MembershipRoots roots;

    /** nwaku's window and intervals, The Waku Network's chain and contract, 3 start attempts 4 s apart. */
    MembershipRootsConfig configOf(URI... endpoints) {
        return MembershipRootsConfig.builder().ethClientAddresses(List.of(endpoints)).ethContractAddress(CONTRACT)
                .chainId(TWN_CHAIN).startAttempts(3).build();
    }

    MembershipRoots start(MembershipRootsConfig config) {
        roots = MembershipRoots.start(config, registry, rpc, time, null, () -> time.now(TimeUnit.NANOSECONDS),
                time::advanceTimeBy);
        return roots;
    }

    MembershipRoots start(URI... endpoints) {
        return start(configOf(endpoints));
    }

    void advance(Duration duration) {
        time.advanceTimeBy(duration);
    }

    double count(String name, String tag, String value) {
        return registry.get(name).tag(tag, value).counter().count();
    }

    double gauge(String name) {
        return registry.get(name).gauge().value();
    }

    @Override
    public void close() {
        if (roots != null) {
            roots.close();
        }
        time.dispose();
    }
}
