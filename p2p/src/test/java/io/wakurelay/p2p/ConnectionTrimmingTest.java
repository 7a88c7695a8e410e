package io.wakurelay.p2p;

import io.netty.buffer.ByteBuf;
import io.wakurelay.p2p.connection.Connection;
import io.wakurelay.p2p.connection.Stream;
import io.wakurelay.p2p.connection.StreamHandler;
import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.echo.EchoProtocol;
import io.wakurelay.testkit.Eventually;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/** Issue 43, N1: inbound connections not worth their slot are closed, or given up for a newcomer (ADR 0086). */
class ConnectionTrimmingTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final Duration SHORT = Duration.ofMillis(800);
    private final TestHosts hosts = new TestHosts();

    @AfterEach
    void close() {
        hosts.close();
    }

    /** A target whose grace period and idle timeout are short; two inbound slots, one kept for dials. */
    private Host target(UnaryOperator<HostConfigBuilder> more) {
        return hosts.start(x -> more.apply(x.gracePeriod(SHORT).idleTimeout(Duration.ofHours(1)).maxConnections(3)
                .reservedOutboundSlots(1).ipColocationLimit(0)));
    }

    /** A peer that serves none of {@code unserved} (identify answers {@code na} when it is among them). */
    private Host peer(String... unserved) {
        Host h = hosts.start(x -> x.pingInterval(Duration.ofHours(1)));
        for (String p : unserved) {
            h.unhandle(p);
        }
        return h;
    }

    private void awaitDisconnects(Host host, String reason, int n) {
        Eventually.until(() -> disconnects(host, reason) == n, WAIT, () -> reason + ": " + disconnects(host, reason));
    }

    private double disconnects(Host host, String reason) {
        return TestHosts.count(hosts.registry(host), "libp2p.disconnects", "reason", reason);
    }

    @Test
    void aConnectionWhosePeerDoesNotAnswerIdentifyIsClosedAfterTheGracePeriod() {
        Host target = target(x -> x);
        Connection c = peer(IdentifyService.PROTOCOL).dial(TestHosts.address(target)).block(WAIT);

        c.onClose().block(WAIT);
        awaitDisconnects(target, ConnectionTrimmer.UNIDENTIFIED, 1);
    }

    @Test
    void aPeerThatNamesNoProtocolServedHereAndUsesNoneIsClosedAfterTheGracePeriodAndOneThatUsesOneIsKept() {
        // long enough for identify to be answered on a loaded machine: else the peer is only unidentified
        Host target = target(x -> x.gracePeriod(Duration.ofSeconds(3)));
        Connection unused = peer(EchoProtocol.ID).dial(TestHosts.address(target)).block(WAIT);
        Connection user = peer(EchoProtocol.ID).dial(TestHosts.address(target)).block(WAIT);
        user.openStream(EchoProtocol.ID, quiet()).block(WAIT).closeWrite();

        unused.onClose().block(WAIT);
        awaitDisconnects(target, ConnectionTrimmer.NO_SHARED_PROTOCOL, 1);
        sleep(Duration.ofSeconds(4));
        assertThat(user.isOpen()).as("a peer that used echo").isTrue();
    }

    @Test
    void aConnectionWithNoStreamOpenIsClosedAtTheIdleTimeoutAndOneWithAStreamOpenIsKept() {
        Host target = target(x -> x.idleTimeout(SHORT).gracePeriod(Duration.ofHours(1)));
        Connection idle = peer().dial(TestHosts.address(target)).block(WAIT);
        Connection busy = peer().dial(TestHosts.address(target)).block(WAIT);
        busy.openStream(EchoProtocol.ID, quiet()).block(WAIT);

        idle.onClose().block(WAIT);
        awaitDisconnects(target, ConnectionTrimmer.IDLE, 1);
        sleep(SHORT.multipliedBy(2));
        assertThat(busy.isOpen()).as("a connection with an echo stream open").isTrue();
    }

    @Test
    void protectedPeersAreNeitherClosedNorEvictedAndANewcomerIsThenRefused() {
        Host target = target(x -> x.idleTimeout(SHORT));
        Host kept = peer(IdentifyService.PROTOCOL);
        Host valued = peer();
        target.addPeerValues(() -> Set.of(kept.peerId(), valued.peerId()));
        Connection a = kept.dial(TestHosts.address(target)).block(WAIT);
        Connection b = valued.dial(TestHosts.address(target)).block(WAIT);

        sleep(SHORT.multipliedBy(3));
        assertThat(a.isOpen()).as("unidentified, but protected").isTrue();
        assertThat(b.isOpen()).as("idle, but protected").isTrue();
        Host newcomer = peer();
        assertThat(newcomer.dial(TestHosts.address(target)).onErrorResume(e -> reactor.core.publisher.Mono.empty())
                .block(WAIT)).isNull();
        assertThat(TestHosts.count(hosts.registry(target), "libp2p.connections.rejected", "reason",
                "too_many_connections")).isEqualTo(1);
    }

    @Test
    void aNewcomerTakesTheSlotOfTheLeastUsefulConnectionAndNeverOfAnActiveOne() {
        Host target = target(x -> x);
        Connection failedIdentify = peer(IdentifyService.PROTOCOL).dial(TestHosts.address(target)).block(WAIT);
        Connection active = peer().dial(TestHosts.address(target)).block(WAIT);
        active.openStream(EchoProtocol.ID, quiet()).block(WAIT);
        Eventually.until("both upgraded on the target", WAIT, () -> target.connections().size() == 2);

        Connection first = peer().dial(TestHosts.address(target)).block(WAIT);
        failedIdentify.onClose().block(WAIT);
        awaitDisconnects(target, ConnectionTrimmer.EVICTED, 1);
        assertThat(first.isOpen()).isTrue();

        // the newcomer is idle now but in its grace period, the other active: the next newcomer is refused
        Connection second = peer().dial(TestHosts.address(target)).onErrorResume(e -> reactor.core.publisher.Mono.empty())
                .block(WAIT);
        assertThat(second).isNull();
        assertThat(active.isOpen()).isTrue();

        // past its grace period the idle one is the least useful
        sleep(SHORT.multipliedBy(2));
        Connection third = peer().dial(TestHosts.address(target)).block(WAIT);
        assertThat(third.isOpen()).isTrue();
        first.onClose().block(WAIT);
        awaitDisconnects(target, ConnectionTrimmer.EVICTED, 2);
        assertThat(active.isOpen()).isTrue();
    }

    @Test
    void amongEquallyUsefulConnectionsTheOneWorthLeastIsGivenUp() {
        Host target = target(x -> x);
        Host cheap = peer();
        Host dear = peer();
        target.addPeerValues(new PeerValues() {
            @Override
            public Set<PeerId> protectedPeers() {
                return Set.of();
            }

            @Override
            public Map<PeerId, Integer> values() {
                return Map.of(cheap.peerId(), -5, dear.peerId(), 100);
            }
        });
        Connection d = dear.dial(TestHosts.address(target)).block(WAIT);
        Connection c = cheap.dial(TestHosts.address(target)).block(WAIT);
        Eventually.until("both upgraded on the target", WAIT, () -> target.connections().size() == 2);
        sleep(SHORT.multipliedBy(2));

        peer().dial(TestHosts.address(target)).block(WAIT);
        c.onClose().block(WAIT);
        assertThat(d.isOpen()).as("the older, but worth more").isTrue();
        assertThat(List.of(target.connection(dear.peerId()).isPresent())).containsExactly(true);
    }

    private static StreamHandler quiet() {
        return new StreamHandler() {
            @Override
            public void onData(Stream s, ByteBuf data) {
                data.release();
            }
        };
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
