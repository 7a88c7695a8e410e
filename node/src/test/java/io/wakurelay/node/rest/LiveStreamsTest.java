package io.wakurelay.node.rest;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Flux;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class LiveStreamsTest {
    private static final String TOPIC = "/waku/2/rs/0/0";

    /** Requests only what the test asks for, as the HTTP sender does (one event once the previous is written). */
    private static final class Reader extends BaseSubscriber<byte[]> {
        final List<byte[]> taken = new ArrayList<>();

        @Override
        protected void hookOnSubscribe(org.reactivestreams.Subscription subscription) {
            // nothing requested yet: a reader that does not read
        }

        @Override
        protected void hookOnNext(byte[] value) {
            taken.add(value);
        }
    }

    private static Reader read(Flux<byte[]> events) {
        Reader reader = new Reader();
        events.subscribe(reader);
        return reader;
    }

    @Test
    void aStreamHoldsAtMostItsByteBudgetDropsPastItAndTakesAgainOnceItsReaderReads() {
        LiveStreams streams = new LiveStreams(4, 256, 1000, 10_000);
        Reader reader = read(streams.open(TOPIC, () -> { }));
        for (int i = 0; i < 5; i++) {
            streams.publish(TOPIC, new byte[300]);
        }
        assertThat(streams.bufferedBytes()).isEqualTo(900);
        assertThat(streams.dropped()).isEqualTo(2);
        reader.request(1);
        assertThat(reader.taken).hasSize(1);
        assertThat(streams.bufferedBytes()).as("taken bytes are given back").isEqualTo(600);
        streams.publish(TOPIC, new byte[300]);
        assertThat(streams.bufferedBytes()).isEqualTo(900);
        assertThat(streams.dropped()).isEqualTo(2);
    }

    @Test
    void anEmptyStreamTakesOneEventLargerThanItsBudgetButNoSecond() {
        LiveStreams streams = new LiveStreams(4, 256, 1000, 10_000);
        read(streams.open(TOPIC, () -> { }));
        streams.publish(TOPIC, new byte[5000]);
        streams.publish(TOPIC, new byte[10]);
        assertThat(streams.bufferedBytes()).isEqualTo(5000);
        assertThat(streams.dropped()).isEqualTo(1);
    }

    @Test
    void allStreamsTogetherHoldAtMostTheTotalBudget() {
        LiveStreams streams = new LiveStreams(8, 256, 1000, 2000);
        for (int i = 0; i < 5; i++) {
            read(streams.open(TOPIC, () -> { }));
        }
        for (int i = 0; i < 4; i++) {
            streams.publish(TOPIC, new byte[400]);
        }
        assertThat(streams.bufferedBytes()).isLessThanOrEqualTo(2000).isEqualTo(2000);
        assertThat(streams.dropped()).as("5 readers x 4 events, 5 buffered").isEqualTo(15);
    }

    @Test
    void aReaderThatGoesAwayGivesBackTheBytesOfWhatItNeverTookAndItsSlot() {
        LiveStreams streams = new LiveStreams(1, 256, 1000, 10_000);
        Reader reader = read(streams.open(TOPIC, () -> { }));
        assertThat(streams.open(TOPIC, () -> { })).as("the one slot is taken").isNull();
        streams.publish(TOPIC, new byte[300]);
        streams.publish(TOPIC, new byte[300]);
        reader.cancel();
        assertThat(streams.bufferedBytes()).isZero();
        assertThat(streams.openStreams()).isZero();
        assertThat(streams.hasListeners(TOPIC)).isFalse();
        assertThat(streams.open(TOPIC, () -> { })).isNotNull();
    }

    @Test
    void aReaderThatTakesNothingWhileAWholeBufferIsDroppedInARowIsDisconnectedOnce() {
        LiveStreams streams = new LiveStreams(4, 8, 1000, 10_000);
        AtomicInteger disconnects = new AtomicInteger();
        read(streams.open(TOPIC, disconnects::incrementAndGet));
        for (int i = 0; i < 20; i++) {
            streams.publish(TOPIC, new byte[100]); // 8 buffered (the count bound), then drops
        }
        assertThat(streams.dropped()).isEqualTo(12);
        assertThat(disconnects.get()).isEqualTo(1);
        assertThat(streams.disconnected()).isEqualTo(1);
    }

    @Test
    void completingEveryStreamEndsItsReaderAfterWhatItHolds() {
        LiveStreams streams = new LiveStreams(4, 256, 1000, 10_000);
        Reader reader = read(streams.open(TOPIC, () -> { }));
        streams.publish(TOPIC, new byte[10]);
        streams.completeAll();
        reader.request(10);
        assertThat(reader.taken).hasSize(1);
        assertThat(reader.isDisposed()).isTrue();
        assertThat(streams.openStreams()).isZero();
        assertThat(streams.bufferedBytes()).isZero();
    }

    @Test
    void aStreamOpenedAfterEveryStreamWasCompletedEndsAtOnce() {
        // a request that passed REST's draining check just before the shutdown began opens its stream afterwards
        LiveStreams streams = new LiveStreams(4, 256, 1000, 10_000);
        streams.completeAll();
        Reader reader = read(streams.open(TOPIC, () -> { }));
        assertThat(reader.isDisposed()).as("completed without a request").isTrue();
        assertThat(streams.openStreams()).isZero();
    }

    @Test
    void aTopicsEntryGoesWithItsLastStreamSoThatTopicsStreamedOnceDoNotPileUp() {
        LiveStreams streams = new LiveStreams(4, 256, 1000, 10_000);
        for (int i = 0; i < 1000; i++) { // a client that streams a new topic each time, one at a time
            Reader reader = read(streams.open("/app/1/topic-" + i + "/proto", () -> { }));
            reader.dispose();
        }
        assertThat(streams.topicCount()).isZero();

        Reader first = read(streams.open(TOPIC, () -> { }));
        Reader second = read(streams.open(TOPIC, () -> { }));
        first.dispose();
        assertThat(streams.topicCount()).as("one stream left on the topic").isEqualTo(1);
        streams.publish(TOPIC, new byte[10]);
        second.request(1);
        assertThat(second.taken).hasSize(1);
        second.dispose();
        assertThat(streams.topicCount()).isZero();
    }
}
