package io.wakurelay.relay;

import io.netty.buffer.PooledByteBufAllocator;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.EnvelopeEncoder;
import io.wakurelay.protocol.MessageValidator;
import io.wakurelay.protocol.PathCounters;
import io.wakurelay.protocol.ProtocolLimits;
import io.wakurelay.testkit.Eventually;
import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class HandOverTest {
    private final EnvelopeEncoder encoder = new EnvelopeEncoder(
            new MessageValidator(ProtocolLimits.DEFAULTS.withMaxClockDrift(Duration.ZERO), () -> 0), new PathCounters());

    private Envelope envelope(int i) {
        return encoder.encode(Messages.TOPIC, Messages.message(i, 10), PooledByteBufAllocator.DEFAULT);
    }

    /** A source that records pauses and resumes. */
    private static final class CountingSource implements Source {
        final AtomicInteger pauses = new AtomicInteger();
        final AtomicInteger resumes = new AtomicInteger();

        @Override
        public void pause() {
            pauses.incrementAndGet();
        }

        @Override
        public void resume() {
            resumes.incrementAndGet();
        }
    }

    @Test
    void aFullHandOverPausesTheSourceThatFilledItAndResumesItAtHalf() {
        HandOver handOver = new HandOver(4);
        CountingSource source = new CountingSource();
        for (int i = 0; i < 4; i++) {
            handOver.offer(envelope(i), source);
        }
        assertThat(source.pauses).hasValue(1);

        StepVerifier.create(handOver.flux().doOnNext(Envelope::release), 1)
                .expectNextCount(1)
                .then(() -> assertThat(source.resumes).as("3 still waiting: above half").hasValue(0))
                .thenRequest(1)
                .expectNextCount(1)
                .then(() -> assertThat(source.resumes).hasValue(1))
                .thenRequest(2)
                .expectNextCount(2)
                .then(handOver::finish)
                .verifyComplete();
        assertThat(handOver.pending()).isZero();
    }

    @Test
    void aPauseDecidedOnOneThreadAndTheResumeDecidedOnAnotherReachTheSourceInTheOrderDecided() throws Exception {
        // a validation thread hands over the envelope that fills the queue and pauses the source; the consumer empties
        // the queue meanwhile and resumes it: the source must hear the resume last, or its stream stays paused for good
        CountDownLatch pausing = new CountDownLatch(1);
        CountDownLatch mayFinishPausing = new CountDownLatch(1);
        java.util.List<String> heard = new java.util.concurrent.CopyOnWriteArrayList<>();
        Source source = new Source() {
            @Override
            public void pause() {
                pausing.countDown();
                try {
                    mayFinishPausing.await(10, java.util.concurrent.TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                heard.add("pause");
            }

            @Override
            public void resume() {
                heard.add("resume");
            }
        };
        HandOver handOver = new HandOver(2);
        handOver.offer(envelope(1), null);
        Thread validationThread = new Thread(() -> handOver.offer(envelope(2), source));
        validationThread.start();
        assertThat(pausing.await(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();

        Thread consumer = new Thread(() -> handOver.flux().subscribe(Envelope::release)); // takes both: resumes
        consumer.start();
        Thread.sleep(200); // the consumer has drained by now, and waits to resume the source
        mayFinishPausing.countDown();
        validationThread.join(10_000);
        consumer.join(10_000);

        Eventually.until(() -> heard.size() == 2);
        assertThat(heard).containsExactly("pause", "resume");
        handOver.finish();
    }

    @Test
    void localPublishesAreRefusedWhileFullAndNothingTakenIsLost() {
        HandOver handOver = new HandOver(2);
        handOver.offer(envelope(1), null);
        assertThat(handOver.offerPublished(envelope(2))).isTrue();
        Envelope third = envelope(3);
        assertThat(handOver.offerPublished(third)).isFalse();
        third.release();

        StepVerifier.create(handOver.flux().doOnNext(Envelope::release))
                .expectNextCount(2)
                .then(handOver::finish)
                .verifyComplete();
    }

    @Test
    void manyProducersOnManyThreadsHandOverEverythingExactlyOnce() throws InterruptedException {
        HandOver handOver = new HandOver(64);
        int producers = 4;
        int each = 2_000;
        AtomicInteger taken = new AtomicInteger();
        handOver.flux().subscribe(e -> {
            taken.incrementAndGet();
            e.release();
        });
        CountDownLatch done = new CountDownLatch(producers);
        for (int p = 0; p < producers; p++) {
            int base = p * each;
            Thread t = new Thread(() -> {
                for (int i = 0; i < each; i++) {
                    handOver.offer(envelope(base + i), null);
                }
                done.countDown();
            });
            t.start();
        }
        assertThat(done.await(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        Eventually.until(() -> taken.get() == producers * each);
        assertThat(handOver.pending()).isZero();
    }

    @Test
    void aCancelledConsumerReleasesWhatWaits() {
        HandOver handOver = new HandOver(8);
        Envelope waiting = envelope(1);
        handOver.offer(waiting, null);
        // a consumer that requests nothing and then goes away
        handOver.flux().subscribe(new reactor.core.publisher.BaseSubscriber<Envelope>() {
            @Override
            protected void hookOnSubscribe(org.reactivestreams.Subscription subscription) {
                dispose();
            }
        });
        handOver.offer(envelope(2), null);

        assertThat(waiting.refCnt()).isZero();
        assertThat(handOver.pending()).isZero();
    }
}
