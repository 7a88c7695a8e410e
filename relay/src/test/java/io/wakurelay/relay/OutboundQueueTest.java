package io.wakurelay.relay;

import org.junit.jupiter.api.Test;

import static io.wakurelay.relay.OutboundQueue.Admission.DROPPED;
import static io.wakurelay.relay.OutboundQueue.Admission.DROPPED_SLOW_CONSUMER;
import static io.wakurelay.relay.OutboundQueue.Admission.QUEUED;
import static org.assertj.core.api.Assertions.assertThat;

class OutboundQueueTest {

    @Test
    void messagesAreQueuedWithinBothBoundsAndDroppedPastEither() {
        OutboundQueue queue = new OutboundQueue(2, 1000, 10);

        assertThat(queue.offer(400)).isEqualTo(QUEUED);
        assertThat(queue.offer(700)).as("past the byte bound").isEqualTo(DROPPED);
        assertThat(queue.offer(500)).isEqualTo(QUEUED);
        assertThat(queue.offer(1)).as("past the message bound").isEqualTo(DROPPED);
        assertThat(queue.messages()).isEqualTo(2);
        assertThat(queue.bytes()).isEqualTo(900);
        assertThat(queue.drops()).isEqualTo(2);

        queue.written(400);

        assertThat(queue.offer(100)).isEqualTo(QUEUED);
        assertThat(queue.bytes()).isEqualTo(600);
    }

    @Test
    void tooManyDropsInARowMakeASlowConsumer() {
        OutboundQueue queue = new OutboundQueue(1, 1000, 2);
        queue.offer(10);

        assertThat(queue.offer(10)).isEqualTo(DROPPED);
        assertThat(queue.offer(10)).isEqualTo(DROPPED);
        assertThat(queue.offer(10)).isEqualTo(DROPPED_SLOW_CONSUMER);
    }

    @Test
    void aMessageThatFitsStartsTheCountOfDropsInARowAgain() {
        OutboundQueue queue = new OutboundQueue(1, 1000, 2);
        queue.offer(10);
        queue.offer(10);
        queue.offer(10);

        queue.written(10);
        assertThat(queue.offer(10)).isEqualTo(QUEUED);

        assertThat(queue.offer(10)).isEqualTo(DROPPED);
        assertThat(queue.offer(10)).isEqualTo(DROPPED);
        assertThat(queue.drops()).isEqualTo(4);
    }

    @Test
    void framesThatMustBeSentAreCountedButNeverRefused() {
        OutboundQueue queue = new OutboundQueue(1, 100, 0);
        queue.offer(100);

        queue.force(50);

        assertThat(queue.messages()).isEqualTo(2);
        assertThat(queue.bytes()).isEqualTo(150);
    }
}
