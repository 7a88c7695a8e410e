package io.wakurelay.relay;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.PooledByteBufAllocator;
import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.EnvelopeEncoder;
import io.wakurelay.protocol.MessageValidator;
import io.wakurelay.protocol.PathCounters;
import io.wakurelay.protocol.ProtocolLimits;
import io.wakurelay.relay.validation.RelayValidator;
import io.wakurelay.relay.validation.Screen;
import io.wakurelay.relay.validation.ValidationConfig;
import io.wakurelay.relay.validation.Verdict;
import io.wakurelay.testkit.Eventually;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The validation stage on its own: its bounds, its threads, its verdicts' order, and its shutdown. */
class ValidationRoomTest {
    private final EnvelopeEncoder encoder = new EnvelopeEncoder(
            new MessageValidator(ProtocolLimits.DEFAULTS.withMaxClockDrift(Duration.ZERO), () -> 0), new PathCounters());
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final RelayMetrics metrics = new RelayMetrics(registry, 0);
    private final List<Envelope> envelopes = new ArrayList<>();

    private Envelope envelope(int i) {
        Envelope e = encoder.encode(Messages.TOPIC, Messages.message(i, 100), PooledByteBufAllocator.DEFAULT);
        envelopes.add(e);
        return e;
    }

    private static PeerState peer() {
        return new PeerState(PeerId.fromPublicKey(PrivateKey.generateEd25519().publicKey()), null, null, null,
                new PeerScore(ScoreParams.DEFAULTS), RelayConfig.DEFAULTS);
    }

    /** A validator whose verify is {@code verify}; its screen always says verify. */
    private static RelayValidator validator(Function<Envelope, Verdict> verify) {
        return new RelayValidator() {
            @Override
            public Set<String> reasons() {
                return Set.of("bad");
            }

            @Override
            public Screen screen(Envelope envelope) {
                return Screen.VERIFY;
            }

            @Override
            public Verdict verify(Envelope envelope) {
                return verify.apply(envelope);
            }
        };
    }

    private final List<ValidationRoom> rooms = new ArrayList<>();

    private ValidationRoom room(ValidationConfig config, RelayValidator validator) {
        ValidationRoom room = new ValidationRoom(config, validator, metrics, System::nanoTime);
        rooms.add(room);
        return room;
    }

    @AfterEach
    void shutDownTheRooms() {
        rooms.forEach(r -> r.shutdown().block(Duration.ofSeconds(20)));
    }

    /** Records what became of it, and releases the envelope as the relay's verifications do. */
    private static final class Recorded extends ValidationRoom.Verification {
        final List<Object> outcomes;
        final int index;

        Recorded(Envelope envelope, PeerState peer, int index, List<Object> outcomes) {
            super(envelope, peer);
            this.index = index;
            this.outcomes = outcomes;
        }

        @Override
        void verdict(Verdict verdict) {
            outcomes.add(index + ":" + verdict + ":" + Thread.currentThread().getName());
            envelope.release();
        }

        @Override
        void dropped(String reason) {
            outcomes.add(index + ":dropped:" + reason);
            envelope.release();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            assertThat(latch.await(20, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void itTakesWhatFitsItsQueueAndEachPeersBudgetAndRefusesTheRestLeavingTheEnvelopeToTheCaller() {
        CountDownLatch gate = new CountDownLatch(1);
        ValidationRoom room = room(new ValidationConfig(1, 3, 1 << 20, 2, 16, 10), validator(e -> {
            await(gate);
            return Verdict.ACCEPT;
        }));
        List<Object> outcomes = new CopyOnWriteArrayList<>();
        PeerState a = peer();
        PeerState b = peer();

        assertThat(room.submit(new Recorded(envelope(1), a, 1, outcomes))).isNull();
        assertThat(room.submit(new Recorded(envelope(2), a, 2, outcomes))).isNull();
        Recorded pastBudget = new Recorded(envelope(3), a, 3, outcomes);
        assertThat(room.submit(pastBudget)).isEqualTo(ValidationRoom.PEER_BUDGET);
        assertThat(room.submit(new Recorded(envelope(4), b, 4, outcomes))).isNull();
        Recorded pastQueue = new Recorded(envelope(5), b, 5, outcomes);
        assertThat(room.submit(pastQueue)).isEqualTo(ValidationRoom.QUEUE_FULL);
        assertThat(pastBudget.envelope.refCnt()).as("still the caller's").isEqualTo(1);
        pastBudget.envelope.release();
        pastQueue.envelope.release();
        assertThat(a.verifications).isEqualTo(2);

        gate.countDown();

        Eventually.until(() -> outcomes.size() == 3);
        assertThat(a.verifications).isZero();
        assertThat(b.verifications).isZero();
        assertThat(envelopes).allMatch(e -> e.refCnt() == 0);
        assertThat(room.submit(new Recorded(envelope(6), a, 6, outcomes))).as("room again").isNull();
        Eventually.until(() -> outcomes.size() == 4);
    }

    @Test
    void itHoldsAtMostItsBytesButTakesOneMessageOfAnySizeWhenEmpty() {
        CountDownLatch gate = new CountDownLatch(1);
        ValidationRoom room = room(new ValidationConfig(1, 8, 1, 8, 16, 10), validator(e -> {
            await(gate);
            return Verdict.ACCEPT;
        }));
        List<Object> outcomes = new CopyOnWriteArrayList<>();

        assertThat(room.submit(new Recorded(envelope(1), null, 1, outcomes))).isNull();
        Recorded second = new Recorded(envelope(2), null, 2, outcomes);
        assertThat(room.submit(second)).isEqualTo(ValidationRoom.QUEUE_FULL);
        second.envelope.release();

        gate.countDown();
        Eventually.until(() -> outcomes.size() == 1);
        assertThat(envelopes).allMatch(e -> e.refCnt() == 0);
    }

    @Test
    void verdictsComeBackOnTheStagesOwnThreadsInTheOrderTheVerificationsEnd() {
        CountDownLatch firstMayEnd = new CountDownLatch(1);
        Envelope first = envelope(1);
        List<Object> outcomes = new CopyOnWriteArrayList<>();
        ValidationRoom room = room(ValidationConfig.DEFAULTS.toBuilder().threads(2).build(), validator(e -> {
            if (e == first) {
                await(firstMayEnd);
            }
            return Verdict.ACCEPT;
        }));

        room.submit(new Recorded(first, null, 1, outcomes));
        room.submit(new Recorded(envelope(2), null, 2, outcomes));
        Eventually.until(() -> outcomes.size() == 1);
        firstMayEnd.countDown();
        Eventually.until(() -> outcomes.size() == 2);

        assertThat(outcomes).extracting(o -> o.toString().split(":")[0]).containsExactly("2", "1");
        assertThat(outcomes).allMatch(o -> o.toString().contains(ValidationRoom.THREAD));
        assertThat(registry.find("waku.relay.validation.verified").tag("verdict", "accept").counter().count())
                .isEqualTo(2);
    }

    @Test
    void aValidatorThatThrowsHasTheMessageIgnoredNotRejected() {
        ValidationRoom room = room(ValidationConfig.DEFAULTS, new RelayValidator() {
            @Override
            public Set<String> reasons() {
                return Set.of();
            }

            @Override
            public Screen screen(Envelope envelope) {
                throw new IllegalStateException("a bug in the screen");
            }

            @Override
            public Verdict verify(Envelope envelope) {
                throw new IllegalStateException("a bug in the proof check");
            }
        });
        List<Object> outcomes = new CopyOnWriteArrayList<>();

        assertThat(room.screen(envelope(1))).isEqualTo(Verdict.ignore(ValidationRoom.VALIDATOR_ERROR));
        room.submit(new Recorded(envelope(2), null, 2, outcomes));

        Eventually.until(() -> outcomes.size() == 1);
        assertThat(outcomes.get(0).toString()).contains("Ignore[reason=validator_error]");
        envelopes.get(0).release();
    }

    @Test
    void shutdownDropsWhatWaitsForAThreadAtOnceAndLetsWhatRunsFinish() {
        CountDownLatch gate = new CountDownLatch(1);
        CountDownLatch running = new CountDownLatch(1);
        ValidationRoom room = room(ValidationConfig.DEFAULTS.toBuilder().threads(1).build(), validator(e -> {
            running.countDown();
            await(gate);
            return Verdict.reject("bad");
        }));
        List<Object> outcomes = new CopyOnWriteArrayList<>();
        PeerState a = peer();
        for (int i = 0; i < 3; i++) {
            room.submit(new Recorded(envelope(i), a, i, outcomes));
        }
        await(running);

        var terminated = room.shutdown().toFuture();

        assertThat(outcomes).containsExactlyInAnyOrder("1:dropped:shutdown", "2:dropped:shutdown");
        assertThat(terminated).isNotDone();
        Recorded late = new Recorded(envelope(9), a, 9, outcomes);
        assertThat(room.submit(late)).isEqualTo(ValidationRoom.SHUTDOWN);
        late.envelope.release();
        gate.countDown();
        assertThat(terminated).succeedsWithin(Duration.ofSeconds(20));
        assertThat(outcomes).hasSize(3);
        assertThat(a.verifications).isZero();
        assertThat(envelopes).allMatch(e -> e.refCnt() == 0);
    }

    @Test
    void aValidatorMayNotGiveTheStagesOwnReasons() {
        RelayValidator thief = new RelayValidator() {
            @Override
            public Set<String> reasons() {
                return Set.of(ValidationRoom.QUEUE_FULL);
            }

            @Override
            public Screen screen(Envelope envelope) {
                return Verdict.ACCEPT;
            }

            @Override
            public Verdict verify(Envelope envelope) {
                return Verdict.ACCEPT;
            }
        };
        assertThatThrownBy(() -> room(ValidationConfig.DEFAULTS, thief)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("queue_full");
    }
}
