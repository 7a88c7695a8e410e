package io.wakurelay.relay;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.ChannelOption;
import io.netty.channel.WriteBufferWaterMark;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.MessageHash;
import io.wakurelay.testkit.TestMessages;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Subscription;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.Connection;
import reactor.netty.tcp.TcpClient;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static io.wakurelay.testkit.TestMessages.PUBSUB_TOPIC;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * When the local consumer stops requesting, the relay stops reading: the sender's socket fills and its writes
 * stall (its channel turns unwritable), the relay holds a bounded number of messages, and once the consumer
 * requests again every message arrives, none lost.
 */
class BackpressureTest {
    private static final int LOCAL_QUEUE = 16;
    private static final int MESSAGES = 2_000;
    private static final int SIZE = 10_000;

    @Test
    void aConsumerThatDoesNotRequestStallsTheSenderWithoutLossOrUnboundedBuffering() {
        PausedConsumer consumer = new PausedConsumer();
        try (TestRelay receiver = TestRelay.startWithoutConsumer(TestRelay.config("receiver").withLocalQueueMessages(LOCAL_QUEUE))) {
            receiver.relay.accepted().subscribe(consumer);
            Set<MessageHash> expected = ConcurrentHashMap.newKeySet();
            AtomicInteger generated = new AtomicInteger();
            AtomicBoolean allSent = new AtomicBoolean();
            Connection sender = TcpClient.newConnection()
                    .remoteAddress(receiver::address)
                    .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                    .option(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(32 * 1024, 64 * 1024))
                    .connectNow(Duration.ofSeconds(10));
            try {
                sender.inbound().receive().subscribe();
                Flux<ByteBuf> frames = Flux.concat(
                        Mono.fromCallable(() -> Frames.of(RawPeer.hello("sender", List.of(PUBSUB_TOPIC)))),
                        Flux.range(0, MESSAGES).map(i -> {
                            generated.incrementAndGet();
                            Frames.Encoded encoded = Frames.publish(PUBSUB_TOPIC, TestMessages.message(i, SIZE, TestMessages.nowNanos()));
                            expected.add(encoded.hash());
                            return encoded.frame();
                        }));
                sender.outbound().send(frames).then().subscribe(null, e -> { }, () -> allSent.set(true));

                Eventually.until("the sender's channel is unwritable", () -> !sender.channel().isWritable());
                Eventually.until("the receiver stopped taking messages",
                        () -> receiver.counter("waku.relay.messages.received", "source", "peer") >= LOCAL_QUEUE);
                double received = receiver.counter("waku.relay.messages.received", "source", "peer");
                assertThat(received).as("read no further than the local queue and one per source")
                        .isLessThanOrEqualTo(LOCAL_QUEUE + LocalDelivery.SOURCE_PREFETCH * 2);
                assertThat(receiver.gauge("waku.relay.inbound.pending"))
                        .isLessThanOrEqualTo(LOCAL_QUEUE + LocalDelivery.SOURCE_PREFETCH * 2);
                assertThat(allSent).as("the sender is held back").isFalse();
                assertThat(generated.get()).isLessThan(MESSAGES);
                assertThat(consumer.taken).isEmpty();

                consumer.requestUnbounded();

                Eventually.until("every message arrived", () -> consumer.taken.size() == MESSAGES);
                assertThat(allSent).isTrue();
                assertThat(consumer.taken.keySet()).isEqualTo(expected);
                assertThat(consumer.taken.values()).allSatisfy(times -> assertThat(times.get()).isEqualTo(1));
                assertThat(receiver.counter("waku.relay.messages.accepted")).isEqualTo(MESSAGES);
                Eventually.until("nothing pending", () -> receiver.gauge("waku.relay.inbound.pending") == 0);
            } finally {
                sender.disposeNow();
            }
        } finally {
            consumer.dispose();
        }
    }

    /** Requests nothing until told to. */
    private static final class PausedConsumer extends BaseSubscriber<Envelope> {
        final ConcurrentHashMap<MessageHash, AtomicInteger> taken = new ConcurrentHashMap<>();

        @Override
        protected void hookOnSubscribe(Subscription subscription) {
            // no request: the relay must hold back
        }

        @Override
        protected void hookOnNext(Envelope envelope) {
            taken.computeIfAbsent(envelope.hash(), h -> new AtomicInteger()).incrementAndGet();
            envelope.release();
        }
    }
}
