package io.wakurelay.services.lightpush;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.wakurelay.p2p.Host;
import io.wakurelay.p2p.connection.Stream;
import io.wakurelay.p2p.connection.StreamHandler;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.p2p.wire.Uvarint;
import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.services.RawExchange;
import io.wakurelay.services.proto.LightPushRequest;
import io.wakurelay.services.proto.LightPushResponse;
import io.wakurelay.testkit.Eventually;
import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;

import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/** The lightpush client's verdicts, in nwaku's statuses and words, on service nodes that answer in every way. */
class LightpushClientTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final WakuMessage MESSAGE = WakuMessage.newBuilder().setPayload(ByteString.copyFromUtf8("x"))
            .setContentTopic("/app/1/lp/proto").setTimestamp(1).build();
    private final List<Host> hosts = new ArrayList<>();
    private final Host client = host(40);
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    private Host host(int index) {
        Host h = RawExchange.clientHost(index);
        hosts.add(h);
        return h;
    }

    @AfterEach
    void close() {
        hosts.forEach(Host::close);
    }

    private double outcomes(String outcome) {
        return registry.get("waku.lightpush.client.requests").tag("outcome", outcome).counter().count();
    }

    /** A service node that answers each request with what {@code answer} makes of it. */
    private Multiaddr answering(int index, Function<LightPushRequest, LightPushResponse> answer) {
        Host server = host(index);
        server.handle(LightpushConfig.PROTOCOL_ID, s -> new StreamHandler() {
            private final ByteArrayOutputStream received = new ByteArrayOutputStream();

            @Override
            public void onData(Stream stream, ByteBuf data) {
                byte[] bytes = new byte[data.readableBytes()];
                data.readBytes(bytes);
                data.release();
                received.writeBytes(bytes);
                LightPushRequest request = whole(received.toByteArray());
                if (request != null) {
                    ByteBuf out = stream.alloc().buffer();
                    out.writeBytes(RawExchange.frame(answer.apply(request)));
                    stream.write(out);
                    stream.closeWrite();
                }
            }
        });
        return server.listenAddresses().get(0);
    }

    /** The request once its length-prefixed bytes are all there, else null. */
    private static LightPushRequest whole(byte[] bytes) {
        int[] next = new int[1];
        long length = Uvarint.read(bytes, 0, next);
        if (length == Uvarint.INCOMPLETE || bytes.length - next[0] < length) {
            return null;
        }
        try {
            return LightPushRequest.parseFrom(Arrays.copyOfRange(bytes, next[0], next[0] + (int) length));
        } catch (InvalidProtocolBufferException e) {
            throw new AssertionError(e);
        }
    }

    private static LightPushResponse.Builder to(LightPushRequest request) {
        return LightPushResponse.newBuilder().setRequestId(request.getRequestId());
    }

    @Test
    void aSuccessCarriesTheRelayPeerCountAndTheRequestAsSent() {
        AtomicReference<LightPushRequest> seen = new AtomicReference<>();
        Multiaddr peer = answering(41, r -> {
            seen.set(r);
            return to(r).setStatusCode(200).setRelayPeerCount(3).build();
        });

        LightpushOutcome outcome = LightpushClient.start(LightpushClientConfig.DEFAULTS, client, registry)
                .push(peer, "/waku/2/rs/0/0", MESSAGE).block(WAIT);

        assertThat(outcome).isEqualTo(new LightpushOutcome(200, null, 3));
        assertThat(seen.get().getPubsubTopic()).isEqualTo("/waku/2/rs/0/0");
        assertThat(seen.get().getMessage()).isEqualTo(MESSAGE);
        assertThat(outcomes("success")).isEqualTo(1);
    }

    @Test
    void theServiceNodesAnswersAreJudgedAsNwakusClientJudgesThem() {
        LightpushClient c = LightpushClient.start(LightpushClientConfig.DEFAULTS, client, registry);
        Multiaddr refusing = answering(42, r -> to(r).setStatusCode(421).setStatusDesc("not this topic").build());
        Multiaddr toNobody = answering(43, r -> to(r).setStatusCode(200).setRelayPeerCount(0).build());
        Multiaddr otherId = answering(44, r -> LightPushResponse.newBuilder().setRequestId("other").setStatusCode(200)
                .setRelayPeerCount(1).build());
        Multiaddr noStatus = answering(49, r -> to(r).setStatusDesc("what?").build());
        Multiaddr limited = answering(45, r -> LightPushResponse.newBuilder().setRequestId("N/A").setStatusCode(429)
                .setStatusDesc("Request rejected due to too many requests").build());

        assertThat(c.push(refusing, "/waku/2/rs/0/0", MESSAGE).block(WAIT)).isEqualTo(new LightpushOutcome(421, "not this topic", 0));
        assertThat(c.push(toNobody, "/waku/2/rs/0/0", MESSAGE).block(WAIT).statusCode())
                .as("a success that reached no relay peer is an error").isEqualTo(505);
        assertThat(c.push(otherId, "/waku/2/rs/0/0", MESSAGE).block(WAIT))
                .isEqualTo(new LightpushOutcome(500, "response failure, requestId mismatch", 0));
        assertThat(c.push(limited, "/waku/2/rs/0/0", MESSAGE).block(WAIT))
                .as("a 429 carries no request id by design").isEqualTo(new LightpushOutcome(429, "Request rejected due to too many requests", 0));
        assertThat(c.push(noStatus, "/waku/2/rs/0/0", MESSAGE).block(WAIT))
                .as("a code that is no HTTP status is a 500, as nwaku's REST maps it")
                .isEqualTo(new LightpushOutcome(500, "the service node answered status 0: what?", 0));
        assertThat(outcomes("error_status")).isEqualTo(5);
    }

    @Test
    void aPeerThatDoesNotServeLightpushIsADialFailure() {
        Multiaddr other = host(46).listenAddresses().get(0);

        LightpushOutcome outcome = LightpushClient.start(LightpushClientConfig.DEFAULTS, client, registry)
                .push(other, "/waku/2/rs/0/0", MESSAGE).block(WAIT);

        assertThat(outcome).isEqualTo(new LightpushOutcome(505, "Peer is not accessible: dial_failure - " + other, 0));
        assertThat(outcomes("dial_failure")).isEqualTo(1);
    }

    @Test
    void aServiceNodeThatDoesNotAnswerInTimeIsNwakusTimeoutAndItsStreamIsReset() {
        Host silent = host(47);
        AtomicReference<Throwable> serverSawEnd = new AtomicReference<>();
        silent.handle(LightpushConfig.PROTOCOL_ID, s -> new StreamHandler() {
            @Override
            public void onData(Stream stream, ByteBuf data) {
                data.release();
            }

            @Override
            public void onClosed(Stream stream, Throwable cause) {
                serverSawEnd.set(cause == null ? new AssertionError("closed cleanly") : cause);
            }
        });
        LightpushClient c = LightpushClient.start(LightpushClientConfig.builder().timeout(Duration.ofMillis(500)).build(), client, registry);

        LightpushOutcome outcome = c.push(silent.listenAddresses().get(0), "/waku/2/rs/0/0", MESSAGE).block(WAIT);

        assertThat(outcome).isEqualTo(new LightpushOutcome(503, "Push request timed out", 0));
        assertThat(outcomes("timeout")).isEqualTo(1);
        Eventually.until(() -> serverSawEnd.get() != null, () -> "the silent server's stream is still open");
        assertThat(serverSawEnd.get()).hasMessageContaining("reset");
    }

    @Test
    void pushesBeyondTheInFlightBoundAreRefusedAtOnceUntilOneEnds() {
        Host silent = host(48);
        silent.handle(LightpushConfig.PROTOCOL_ID, s -> new StreamHandler() {
            @Override
            public void onData(Stream stream, ByteBuf data) {
                data.release();
            }
        });
        Multiaddr peer = silent.listenAddresses().get(0);
        LightpushClient c = LightpushClient.start(LightpushClientConfig.builder().maxInFlight(1).timeout(Duration.ofSeconds(2)).build(),
                client, registry);
        AtomicReference<LightpushOutcome> first = new AtomicReference<>();
        Disposable underWay = c.push(peer, "/waku/2/rs/0/0", MESSAGE).subscribe(first::set);
        try {
            Eventually.until(() -> registry.get("waku.lightpush.client.requests.in.flight").gauge().value() == 1,
                    () -> "the first push is not under way");

            LightpushOutcome refused = c.push(peer, "/waku/2/rs/0/0", MESSAGE).block(WAIT);

            assertThat(refused.statusCode()).isEqualTo(503);
            assertThat(refused.statusDesc()).contains("1 pushes under way already");
            assertThat(outcomes("refused")).isEqualTo(1);
            Eventually.until(() -> first.get() != null, () -> "the first push did not end");
            assertThat(registry.get("waku.lightpush.client.requests.in.flight").gauge().value()).isZero();
            assertThat(c.push(peer, "/waku/2/rs/0/0", MESSAGE).block(WAIT).statusDesc()).isEqualTo("Push request timed out");
        } finally {
            underWay.dispose();
        }
    }

    @Test
    void aV3OutcomeReadsInLegacyTermsAsNwakusLegacyProtocolWouldSayIt() {
        assertThat(LegacyLightpushOutcome.fromV3(new LightpushOutcome(200, null, 2), 153_600).success()).isTrue();
        assertThat(LegacyLightpushOutcome.fromV3(new LightpushOutcome(505, "no relay peers on x", 0), 153_600).info())
                .isEqualTo("not_published_to_any_peer");
        assertThat(LegacyLightpushOutcome.fromV3(new LightpushOutcome(505, "Peer is not accessible: dial_failure - /ip4/x", 0), 153_600).info())
                .isEqualTo("dial_failure");
        assertThat(LegacyLightpushOutcome.fromV3(new LightpushOutcome(413, "message is 200000 bytes", 0), 153_600).info())
                .isEqualTo("Message size exceeded maximum of 153600 bytes");
        assertThat(LegacyLightpushOutcome.fromV3(new LightpushOutcome(429, "slow down", 0), 153_600).info()).isEqualTo("TOO_MANY_REQUESTS");
        assertThat(LegacyLightpushOutcome.fromV3(new LightpushOutcome(503, "Push request timed out", 0), 153_600).info())
                .isEqualTo("Push request timed out");
        assertThat(LegacyLightpushOutcome.fromV3(new LightpushOutcome(420, "Dropping already-seen message", 0), 153_600)
                .info()).as("a duplicate, as nwaku's service node words it").isEqualTo("not_published_to_any_peer");
        assertThat(LegacyLightpushOutcome.fromV3(new LightpushOutcome(420, "RLN validation failed: invalid proof", 0),
                153_600).info()).isEqualTo("RLN validation failed: invalid proof");
        assertThat(LegacyLightpushOutcome.fromV3(new LightpushOutcome(504, "out of RLN proof", 0), 153_600).info())
                .as("another implementation's code keeps its words").isEqualTo("out of RLN proof");
    }
}
