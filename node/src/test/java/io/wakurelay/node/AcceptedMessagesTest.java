package io.wakurelay.node;

import com.google.protobuf.ByteString;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.PooledByteBufAllocator;
import io.wakurelay.archive.CommittedBatch;
import io.wakurelay.archive.MessageArchive;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.EnvelopeEncoder;
import io.wakurelay.protocol.MessageValidator;
import io.wakurelay.protocol.PathCounters;
import io.wakurelay.protocol.ProtocolLimits;
import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.testkit.Eventually;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Subscription;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Flux;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The accepted-message stage on its own: filter push, REST delivery, the taps, then the archive, in that order, one
 * message at a time, all paced by the archive's demand, from one source or several.
 */
class AcceptedMessagesTest {
    private static final String TOPIC = "/waku/2/rs/0/0";
    private final EnvelopeEncoder encoder = new EnvelopeEncoder(
            new MessageValidator(ProtocolLimits.DEFAULTS.withMaxClockDrift(Duration.ZERO), () -> 0), new PathCounters());
    private final List<String> heard = new CopyOnWriteArrayList<>();
    /** The archive's subscription to what the stage hands it: the test requests on it. */
    private final AtomicReference<Subscription> archiveDemand = new AtomicReference<>();

    private Envelope envelope(int i) {
        WakuMessage m = WakuMessage.newBuilder().setPayload(ByteString.copyFromUtf8("m" + i))
                .setContentTopic("/app/1/stage/proto").setTimestamp(i + 1).build();
        return encoder.encode(TOPIC, m, PooledByteBufAllocator.DEFAULT);
    }

    private static String name(Envelope e) {
        return e.message().payload().toString(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** An archive that takes each envelope (recording and releasing it) only as the test requests. */
    private MessageArchive archive() {
        return (MessageArchive) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[]{MessageArchive.class},
                (proxy, method, args) -> {
                    if (!method.getName().equals("write")) {
                        throw new UnsupportedOperationException(method.getName());
                    }
                    @SuppressWarnings("unchecked")
                    Flux<Envelope> envelopes = (Flux<Envelope>) args[0];
                    return Flux.<CommittedBatch>create(sink -> envelopes.subscribe(new BaseSubscriber<>() {
                        @Override
                        protected void hookOnSubscribe(Subscription subscription) {
                            archiveDemand.set(subscription);
                        }

                        @Override
                        protected void hookOnNext(Envelope e) {
                            heard.add("archive " + name(e));
                            e.release();
                        }

                        @Override
                        protected void hookOnComplete() {
                            sink.complete();
                        }
                    }));
                });
    }

    private AcceptedMessages stage() {
        ArchivePipeline pipeline = new ArchivePipeline(archive());
        AcceptedMessages stage = new AcceptedMessages(e -> heard.add("filter " + name(e)),
                e -> heard.add("rest " + name(e)), pipeline);
        stage.tap(e -> heard.add("tap " + name(e)));
        return stage;
    }

    @Test
    void eachMessageGoesToFilterThenRestThenTheTapsThenTheArchiveAsTheArchiveAsksForIt() {
        AcceptedMessages stage = stage();
        stage.connect(List.of(Flux.range(0, 3).map(this::envelope)));
        assertThat(heard).as("the archive asked for nothing: nothing went anywhere").isEmpty();

        archiveDemand.get().request(1);
        assertThat(heard).containsExactly("filter m0", "rest m0", "tap m0", "archive m0");

        archiveDemand.get().request(2);
        assertThat(heard).hasSize(12).endsWith("filter m2", "rest m2", "tap m2", "archive m2");
    }

    @Test
    void aFailingFilterPushOrRestDeliveryDoesNotStopTheChain() {
        ArchivePipeline pipeline = new ArchivePipeline(archive());
        AcceptedMessages stage = new AcceptedMessages(e -> {
            throw new IllegalStateException("a subscriber's bug");
        }, e -> {
            throw new IllegalStateException("a REST bug");
        }, pipeline);
        stage.connect(List.of(Flux.range(0, 2).map(this::envelope)));

        archiveDemand.get().request(2);

        assertThat(heard).containsExactly("archive m0", "archive m1");
    }

    @Test
    void severalSourcesAreMergedAndEveryMessageOfEachIsArchivedOnce() {
        AcceptedMessages stage = stage();
        stage.connect(List.of(Flux.range(0, 3).map(this::envelope), Flux.range(10, 3).map(this::envelope)));

        archiveDemand.get().request(Long.MAX_VALUE);

        Eventually.until(() -> heard.stream().filter(h -> h.startsWith("archive")).count() == 6);
        assertThat(heard.stream().filter(h -> h.startsWith("archive")))
                .containsExactlyInAnyOrder("archive m0", "archive m1", "archive m2", "archive m10", "archive m11",
                        "archive m12");
    }

    @Test
    void withoutASourceNothingComesAndTheArchivesStreamEnds() {
        AcceptedMessages stage = stage();
        stage.connect(List.of());
        assertThat(heard).isEmpty();
    }
}
