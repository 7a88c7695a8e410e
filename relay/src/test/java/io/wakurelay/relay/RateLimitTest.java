package io.wakurelay.relay;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.ChannelOption;
import io.wakurelay.protocol.MessageHash;
import io.wakurelay.protocol.proto.Frame;
import io.wakurelay.protocol.proto.Goodbye;
import io.wakurelay.protocol.proto.Ping;
import io.wakurelay.testkit.TestMessages;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.Connection;
import reactor.netty.tcp.TcpClient;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.wakurelay.testkit.TestMessages.PUBSUB_TOPIC;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Per-peer rate limits over real sockets: a control-frame flood ends the connection with RATE_LIMITED, while a
 * publisher faster than its Publish allowance is read more slowly and loses nothing. Other peers are unaffected.
 */
class RateLimitTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private final List<AutoCloseable> resources = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable resource : resources) {
            resource.close();
        }
    }

    private TestRelay relay(RelayConfig config) {
        TestRelay relay = TestRelay.start(config);
        resources.add(relay);
        return relay;
    }

    private RawPeer handshaken(TestRelay relay, String nodeId) throws IOException {
        RawPeer raw = RawPeer.connect(relay.address());
        resources.add(0, raw);
        raw.handshake(nodeId, List.of(PUBSUB_TOPIC));
        Eventually.until(nodeId + " is a peer", () -> relay.peerIds().contains(nodeId));
        return raw;
    }

    @Test
    void aPeerFloodingPingsIsDisconnectedAsRateLimitedWhileOtherPeersAreUnaffected() throws IOException {
        int perSecond = 20;
        TestRelay relay = relay(TestRelay.config("target").withRateLimits(RateLimits.DEFAULTS.withControlFrames(perSecond)));
        TestRelay good = relay(TestRelay.config("good").withStaticPeers(List.of(relay.address())));
        Eventually.until("the good peer is connected", () -> relay.connectedTo(good));
        RawPeer polite = handshaken(relay, "polite");
        RawPeer flooder = handshaken(relay, "flooder");

        for (int i = 0; i < perSecond / 2; i++) {
            polite.send(ping(i));
        }
        flooder.sendRaw(pings(10 * perSecond));

        assertThat(flooder.awaitGoodbye(WAIT).getReason()).isEqualTo(Goodbye.Reason.RATE_LIMITED);
        assertThat(flooder.closedWithin(WAIT)).isTrue();
        assertThat(relay.counter("waku.relay.rate.limited", "kind", "control")).isEqualTo(1);
        Eventually.until("the disconnect counted", () -> relay.counter("waku.relay.peer.disconnects", "reason", "rate_limited") == 1);
        assertThat(relay.counter("waku.relay.frames.received", "kind", "ping"))
                .as("the flood was cut off after its burst (plus what a slow machine refills meanwhile)")
                .isLessThanOrEqualTo(perSecond / 2 + 2 * perSecond);

        for (int i = 0; i < perSecond / 2; i++) {
            Frame pong = polite.read(WAIT);
            assertThat(pong.hasPong()).as("a polite peer's Pings are answered: %s", pong).isTrue();
        }
        assertThat(relay.peerIds()).containsExactlyInAnyOrder("good", "polite");
        PublishResult fromGood = good.publish(TestMessages.message(1, 500, TestMessages.nowNanos()));
        Eventually.until("the good peer's message arrived", () -> relay.timesAccepted(fromGood.hash()) == 1);
        PublishResult fromRelay = relay.publish(TestMessages.message(2, 500, TestMessages.nowNanos()));
        Eventually.until("the relay's message reached the good peer", () -> good.timesAccepted(fromRelay.hash()) == 1);
    }

    @Test
    void aPeerPublishingFasterThanItsMessageLimitIsSlowedAndLosesNothing() {
        int perSecond = 40;
        int messages = 120;
        TestRelay relay = relay(TestRelay.config("receiver").withRateLimits(RateLimits.DEFAULTS.withPublish(perSecond, 0)));

        Duration took = publishWithBackpressure(relay, messages, 1_000);

        // one second's worth goes at once, the rest at the rate: a slower machine can only take longer
        long floorMillis = (long) ((messages - perSecond - 1) * 1000.0 / perSecond * 0.9);
        assertThat(took.toMillis()).as("paced to %d messages per second", perSecond).isGreaterThanOrEqualTo(floorMillis);
        assertThat(relay.counter("waku.relay.rate.limited", "kind", "publish_messages")).isPositive();
        assertThat(relay.counter("waku.relay.rate.limited", "kind", "publish_bytes")).isZero();
    }

    @Test
    void aPeerPublishingFasterThanItsByteLimitIsSlowedAndLosesNothing() {
        long bytesPerSecond = 200_000;
        int messages = 30;
        int size = 20_000;
        TestRelay relay = relay(TestRelay.config("receiver").withRateLimits(RateLimits.DEFAULTS.withPublish(0, bytesPerSecond)));

        Duration took = publishWithBackpressure(relay, messages, size);

        long floorMillis = (long) (((double) messages * size - bytesPerSecond) * 1000 / bytesPerSecond * 0.9);
        assertThat(took.toMillis()).as("paced to %d bytes per second", bytesPerSecond).isGreaterThanOrEqualTo(floorMillis);
        assertThat(relay.counter("waku.relay.rate.limited", "kind", "publish_bytes")).isPositive();
    }

    /**
     * Sends Hello and then {@code messages} Publish frames as fast as the connection takes them (a Reactor Netty
     * sender: it writes only as the socket drains, so nothing is dropped on its side), and waits until the relay
     * accepted every one exactly once, without a drop, a refusal or a disconnect.
     *
     * @return from the first frame sent to the last message accepted
     */
    private Duration publishWithBackpressure(TestRelay relay, int messages, int size) {
        Set<MessageHash> sent = ConcurrentHashMap.newKeySet();
        AtomicBoolean allWritten = new AtomicBoolean();
        Connection sender = TcpClient.newConnection()
                .remoteAddress(relay::address)
                .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                .connectNow(WAIT);
        resources.add(0, sender::disposeNow);
        sender.inbound().receive().subscribe();
        Flux<ByteBuf> frames = Flux.concat(
                Mono.fromCallable(() -> Frames.of(RawPeer.hello("publisher", List.of(PUBSUB_TOPIC)))),
                Flux.range(0, messages).map(i -> {
                    Frames.Encoded encoded = Frames.publish(PUBSUB_TOPIC, TestMessages.message(i, size, TestMessages.nowNanos()));
                    sent.add(encoded.hash());
                    return encoded.frame();
                }));
        long start = System.nanoTime();
        sender.outbound().send(frames).then().subscribe(null, e -> { }, () -> allWritten.set(true));

        Eventually.until("every message arrived", Duration.ofSeconds(60), () -> relay.acceptedHashes().size() == messages);
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertThat(relay.acceptedHashes()).isEqualTo(sent);
        assertThat(relay.acceptedCounts().values()).allSatisfy(times -> assertThat(times).isEqualTo(1));
        assertThat(relay.counter("waku.relay.messages.received", "source", "peer")).isEqualTo(messages);
        assertThat(relay.registry.find("waku.relay.messages.invalid").counters()).as("nothing refused").isEmpty();
        assertThat(relay.peerIds()).as("slowed, not disconnected").containsExactly("publisher");
        assertThat(relay.registry.find("waku.relay.peer.disconnects").counters()).isEmpty();
        Eventually.until("the sender finished writing", allWritten::get);
        return took;
    }

    private static Frame ping(long nonce) {
        return Frame.newBuilder().setPing(Ping.newBuilder().setNonce(nonce)).build();
    }

    private static byte[] pings(int count) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < count; i++) {
            out.writeBytes(RawPeer.bytes(ping(i)));
        }
        return out.toByteArray();
    }
}
