package io.wakurelay.archive.common;

import io.wakurelay.archive.CoreConfig;
import io.wakurelay.archive.CommittedBatch;
import io.wakurelay.archive.TestEnvelopes;
import io.wakurelay.protocol.Envelope;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;
import reactor.core.scheduler.Scheduler;
import reactor.test.StepVerifier;
import reactor.test.publisher.TestPublisher;
import reactor.test.scheduler.VirtualTimeScheduler;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link WriteSession} alone, on virtual time: the writer thread is a {@link VirtualTimeScheduler} on which every
 * drain and timer runs when the test says, and commits are refused when the test says, so that each interleaving of
 * envelopes, batch-window timers and retry backoffs can be set up exactly. No RocksDB.
 */
class WriteSessionTest {
    /** How long a verification may wait in real time for a signal virtual time should already have produced. */
    private static final Duration NO_HANG = Duration.ofSeconds(10);
    private static final Duration FLUSH_INTERVAL = Duration.ofMillis(200);

    private final VirtualWriter writer = new VirtualWriter();
    private final TestPublisher<Envelope> upstream = TestPublisher.create();
    private final List<Long> requested = new ArrayList<>();

    /** The acknowledgements of a session over {@link #upstream}, wired as {@link SingleWriter#write} wires one. */
    private Flux<CommittedBatch> session(int maxBatch, int maxPending, Duration maxBatchDelay) {
        return session(maxBatch, maxPending, maxBatchDelay, 8 * maxPending);
    }

    private Flux<CommittedBatch> session(int maxBatch, int maxPending, Duration maxBatchDelay, int maxUnacknowledged) {
        return Flux.create(sink -> {
            WriteSession session = new WriteSession(writer, sink, maxBatch, maxPending, maxBatchDelay, maxUnacknowledged,
                    FLUSH_INTERVAL);
            writer.session = session;
            sink.onRequest(n -> session.scheduleDrain());
            sink.onCancel(session::cancel);
            upstream.flux().doOnRequest(requested::add).subscribe(session);
        }, FluxSink.OverflowStrategy.ERROR);
    }

    private StepVerifier.FirstStep<CommittedBatch> verify(Flux<CommittedBatch> acks, long initialRequest) {
        return StepVerifier.withVirtualTime(() -> acks, () -> writer.scheduler, initialRequest);
    }

    @Test
    void aHeldBatchIsRetriedWhenItsBackoffEndsThoughAnEarlierBatchWindowTimerWokeItFirst() {
        List<Envelope> envelopes = TestEnvelopes.sequence(0, 2, 32);
        writer.refuse(1);
        // the first envelope opens a 10 ms batch window; the second fills the batch, whose commit is refused: its
        // retry is due at 50 ms, after the window's timer, which therefore wakes the session first, at 10 ms
        verify(session(2, 8, Duration.ofMillis(10)), Long.MAX_VALUE)
                .then(() -> upstream.next(envelopes.get(0)))
                .then(() -> upstream.next(envelopes.get(1)))
                .then(() -> assertThat(writer.attemptsAtMillis).containsExactly(0L))
                .expectNoEvent(Duration.ofMillis(49))
                .thenAwait(Duration.ofMillis(1))
                .assertNext(ack -> assertThat(ack.stored()).containsExactlyElementsOf(hashes(envelopes)))
                .then(() -> assertThat(writer.attemptsAtMillis).containsExactly(0L, 50L))
                .then(upstream::complete)
                .expectComplete()
                .verify(NO_HANG);
        assertEverythingReleased(envelopes);
    }

    @Test
    void refusedCommitsAreRetriedAfterBackoffsThatDouble() {
        List<Envelope> envelopes = TestEnvelopes.sequence(0, 1, 32);
        writer.refuse(3);
        verify(session(4, 8, Duration.ZERO), Long.MAX_VALUE)
                .then(() -> upstream.next(envelopes.get(0)))
                .expectNoEvent(Duration.ofMillis(349))
                .thenAwait(Duration.ofMillis(1))
                .expectNextCount(1)
                .then(() -> assertThat(writer.attemptsAtMillis).containsExactly(0L, 50L, 150L, 350L))
                .thenCancel()
                .verify(NO_HANG);
        assertEverythingReleased(envelopes);
    }

    @Test
    void anEnvelopeArrivingDuringTheBackoffDoesNotBringTheRetryForwardAndIsCommittedRightAfterIt() {
        List<Envelope> envelopes = TestEnvelopes.sequence(0, 2, 32);
        writer.refuse(1);
        verify(session(4, 8, Duration.ZERO), Long.MAX_VALUE)
                .then(() -> upstream.next(envelopes.get(0)))
                .thenAwait(Duration.ofMillis(20))
                .then(() -> upstream.next(envelopes.get(1)))
                .then(() -> assertThat(writer.attemptsAtMillis).containsExactly(0L))
                .expectNoEvent(Duration.ofMillis(29))
                .thenAwait(Duration.ofMillis(1))
                .assertNext(ack -> assertThat(ack.stored()).containsExactly(envelopes.get(0).hash()))
                .assertNext(ack -> assertThat(ack.stored()).containsExactly(envelopes.get(1).hash()))
                .then(() -> assertThat(writer.attemptsAtMillis).containsExactly(0L, 50L, 50L))
                .thenCancel()
                .verify(NO_HANG);
        assertEverythingReleased(envelopes);
    }

    @Test
    void aBatchWaitsForItsWindowUnlessItIsFull() {
        List<Envelope> envelopes = TestEnvelopes.sequence(0, 3, 32);
        verify(session(2, 8, Duration.ofMillis(10)), Long.MAX_VALUE)
                .then(() -> upstream.next(envelopes.get(0), envelopes.get(1)))
                .assertNext(ack -> assertThat(ack.envelopes()).isEqualTo(2))
                .then(() -> upstream.next(envelopes.get(2)))
                .expectNoEvent(Duration.ofMillis(9))
                .thenAwait(Duration.ofMillis(1))
                .assertNext(ack -> assertThat(ack.stored()).containsExactly(envelopes.get(2).hash()))
                .thenCancel()
                .verify(NO_HANG);
        assertEverythingReleased(envelopes);
    }

    @Test
    void byDefaultALoneEnvelopeIsCommittedAtOnceAndWhatQueuedMeanwhileGoesTogether() {
        // ADR 0082: no batch window; a batch is what queued while the writer could not commit (here: no demand)
        List<Envelope> envelopes = TestEnvelopes.sequence(0, 4, 32);
        verify(session(2, 8, CoreConfig.DEFAULTS.maxBatchDelay()), 1)
                .then(() -> upstream.next(envelopes.get(0)))
                .then(() -> assertThat(writer.attemptsAtMillis).containsExactly(0L))
                .assertNext(ack -> assertThat(ack.stored()).containsExactly(envelopes.get(0).hash()))
                .then(() -> upstream.next(envelopes.get(1), envelopes.get(2), envelopes.get(3)))
                .then(() -> assertThat(writer.attemptsAtMillis).containsExactly(0L))
                .thenRequest(2)
                .assertNext(ack -> assertThat(ack.stored()).containsExactlyElementsOf(hashes(envelopes.subList(1, 3))))
                .assertNext(ack -> assertThat(ack.stored()).containsExactly(envelopes.get(3).hash()))
                .then(() -> assertThat(writer.attemptsAtMillis).containsExactly(0L, 0L, 0L))
                .thenCancel()
                .verify(NO_HANG);
        assertEverythingReleased(envelopes);
    }

    @Test
    void nothingIsCommittedBeforeTheAcknowledgementsAreRequested() {
        List<Envelope> envelopes = TestEnvelopes.sequence(0, 2, 32);
        verify(session(2, 8, Duration.ofMillis(10)), 0)
                .then(() -> upstream.next(envelopes.get(0), envelopes.get(1)))
                .expectNoEvent(Duration.ofSeconds(10))
                .then(() -> assertThat(writer.attemptsAtMillis).isEmpty())
                .thenRequest(1)
                .expectNextCount(1)
                .then(() -> assertThat(writer.attemptsAtMillis).containsExactly(10_000L))
                .thenCancel()
                .verify(NO_HANG);
        assertEverythingReleased(envelopes);
    }

    @Test
    void upstreamIsAskedForTheWholeBudgetAtFirstAndForABatchWorthMoreOnlyOnceTheBatchIsCommitted() {
        List<Envelope> envelopes = TestEnvelopes.sequence(0, 4, 32);
        writer.refuse(1);
        verify(session(2, 4, Duration.ofMillis(10)), Long.MAX_VALUE)
                .then(() -> envelopes.forEach(upstream::next))
                .then(() -> assertThat(requested).as("nothing more while the first batch is refused").containsExactly(4L))
                .then(() -> assertThat(writer.pending).isEqualTo(4))
                .thenAwait(Duration.ofMillis(50))
                .expectNextCount(2)
                .thenCancel()
                .verify(NO_HANG);
        assertThat(requested).containsExactly(4L, 2L, 2L);
        assertEverythingReleased(envelopes);
    }

    @Test
    void cancellingTheAcknowledgementsReleasesTheHeldBatchAndEndsTheSession() {
        List<Envelope> envelopes = TestEnvelopes.sequence(0, 2, 32);
        writer.refuse(Integer.MAX_VALUE);
        verify(session(2, 8, Duration.ZERO), Long.MAX_VALUE)
                .then(() -> upstream.next(envelopes.get(0), envelopes.get(1)))
                .thenAwait(Duration.ofSeconds(1))
                .thenCancel()
                .verify(NO_HANG);
        upstream.assertCancelled();
        assertThat(writer.ended).isTrue();
        assertEverythingReleased(envelopes);
    }

    @Test
    void withFlushDurabilityABatchIsAcknowledgedOnlyAfterTheFlushThatWroteItAndTheFlushIsAskedForWithinTheInterval() {
        List<Envelope> envelopes = TestEnvelopes.sequence(0, 4, 32);
        writer.flushDurability = true;
        verify(session(2, 8, Duration.ofMillis(10)), Long.MAX_VALUE)
                .then(() -> upstream.next(envelopes.get(0), envelopes.get(1)))
                .then(() -> assertThat(writer.attemptsAtMillis).containsExactly(0L))
                .then(() -> assertThat(envelopes.subList(0, 2)).as("released once written").allSatisfy(e -> assertThat(e.refCnt()).isZero()))
                .then(() -> assertThat(writer.durabilityAskedWithinNanos).containsExactly(FLUSH_INTERVAL.toNanos()))
                .then(() -> assertThat(writer.unacknowledged).isEqualTo(2))
                .expectNoEvent(Duration.ofMillis(150))
                .then(() -> upstream.next(envelopes.get(2), envelopes.get(3)))
                .then(() -> assertThat(writer.attemptsAtMillis).as("writes go on while the flush is pending").containsExactly(0L, 150L))
                .expectNoEvent(Duration.ofMillis(50))
                .then(writer::flush)
                .assertNext(ack -> assertThat(ack.stored()).containsExactlyElementsOf(hashes(envelopes.subList(0, 2))))
                .assertNext(ack -> assertThat(ack.stored()).containsExactlyElementsOf(hashes(envelopes.subList(2, 4))))
                .then(() -> assertThat(writer.unacknowledged).isZero())
                .thenCancel()
                .verify(NO_HANG);
        assertEverythingReleased(envelopes);
    }

    @Test
    void withFlushDurabilityWritingStopsWhenTheUnacknowledgedWindowIsFullAndAFlushIsAskedForAtOnce() {
        List<Envelope> envelopes = TestEnvelopes.sequence(0, 6, 32);
        writer.flushDurability = true;
        verify(session(2, 8, Duration.ofMillis(10), 4), Long.MAX_VALUE)
                .then(() -> envelopes.forEach(upstream::next))
                .then(() -> assertThat(writer.attemptsAtMillis).as("two batches fill the window of 4").hasSize(2))
                .then(() -> assertThat(writer.durabilityAskedWithinNanos).contains(0L))
                .expectNoEvent(Duration.ofSeconds(1))
                .then(() -> assertThat(writer.attemptsAtMillis).hasSize(2))
                .then(writer::flush)
                .expectNextCount(2)
                .then(() -> assertThat(writer.attemptsAtMillis).as("the third batch is written once the window has room").hasSize(3))
                .then(writer::flush)
                .expectNextCount(1)
                .thenCancel()
                .verify(NO_HANG);
        assertEverythingReleased(envelopes);
    }

    @Test
    void withFlushDurabilityTheStreamCompletesOnlyAfterItsLastBatchIsFlushedAndAcknowledged() {
        List<Envelope> envelopes = TestEnvelopes.sequence(0, 2, 32);
        writer.flushDurability = true;
        verify(session(2, 8, Duration.ofMillis(10)), Long.MAX_VALUE)
                .then(() -> upstream.next(envelopes.get(0), envelopes.get(1)))
                .then(upstream::complete)
                .then(() -> assertThat(writer.durabilityAskedWithinNanos).as("the end asks for a flush at once").contains(0L))
                .expectNoEvent(Duration.ofSeconds(1))
                .then(() -> assertThat(writer.ended).isFalse())
                .then(writer::flush)
                .expectNextCount(1)
                .expectComplete()
                .verify(NO_HANG);
        assertThat(writer.ended).isTrue();
        assertEverythingReleased(envelopes);
    }

    @Test
    void withFlushDurabilityCancellingDropsTheUnacknowledgedBatchesWithoutAcknowledgingThem() {
        List<Envelope> envelopes = TestEnvelopes.sequence(0, 2, 32);
        writer.flushDurability = true;
        verify(session(2, 8, Duration.ofMillis(10)), Long.MAX_VALUE)
                .then(() -> upstream.next(envelopes.get(0), envelopes.get(1)))
                .then(() -> assertThat(writer.unacknowledged).isEqualTo(2))
                .thenCancel()
                .verify(NO_HANG);
        assertThat(writer.unacknowledged).isZero();
        assertEverythingReleased(envelopes);
    }

    private void assertEverythingReleased(List<Envelope> envelopes) {
        assertThat(envelopes).allSatisfy(e -> assertThat(e.refCnt()).isZero());
        assertThat(writer.pending).isZero();
    }

    private static List<io.wakurelay.protocol.MessageHash> hashes(List<Envelope> envelopes) {
        return envelopes.stream().map(Envelope::hash).toList();
    }

    /**
     * A writer thread on virtual time whose commits are refused as often as a test asks; with
     * {@link #flushDurability} its commits become durable only when the test calls {@link #flush()}.
     */
    private static final class VirtualWriter implements WriteSession.Writer {
        final VirtualTimeScheduler scheduler = VirtualTimeScheduler.create();
        final List<Long> attemptsAtMillis = new ArrayList<>();
        final List<Long> durabilityAskedWithinNanos = new ArrayList<>();
        int pending;
        int unacknowledged;
        boolean ended;
        boolean flushDurability;
        WriteSession session;
        private int refusals;
        private long written;
        private long durable;

        /** A flush of everything written so far completed, as the flusher reports it. */
        void flush() {
            durable = written;
            session.scheduleDrain();
        }

        @Override
        public long writtenSequence() {
            return written;
        }

        @Override
        public long durableSequence() {
            return flushDurability ? durable : written;
        }

        @Override
        public void makeDurableWithin(long delayNanos) {
            durabilityAskedWithinNanos.add(delayNanos);
        }

        @Override
        public void unacknowledgedChanged(int delta) {
            unacknowledged += delta;
        }

        void refuse(int commits) {
            refusals = commits;
        }

        @Override
        public Scheduler scheduler() {
            return scheduler;
        }

        @Override
        public long nanoTime() {
            return scheduler.now(TimeUnit.NANOSECONDS);
        }

        @Override
        public CommittedBatch commit(List<Envelope> batch) {
            attemptsAtMillis.add(scheduler.now(TimeUnit.MILLISECONDS));
            if (refusals > 0) {
                refusals--;
                return null;
            }
            written++;
            return new CommittedBatch(hashes(batch), 0, 0, nanoTime());
        }

        @Override
        public void pendingChanged(int delta) {
            pending += delta;
        }

        @Override
        public void sessionEnded(WriteSession session) {
            ended = true;
        }
    }
}
