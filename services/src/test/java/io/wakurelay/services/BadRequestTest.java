package io.wakurelay.services;

import com.google.protobuf.InvalidProtocolBufferException;
import io.wakurelay.p2p.Host;
import io.wakurelay.p2p.connection.P2pException;
import io.wakurelay.services.filter.FilterConfig;
import io.wakurelay.services.lightpush.LightpushConfig;
import io.wakurelay.services.proto.FilterSubscribeResponse;
import io.wakurelay.services.proto.LightPushResponse;
import io.wakurelay.services.proto.StoreQueryResponse;
import io.wakurelay.services.store.StoreLimits;
import io.wakurelay.services.store.StoreServiceConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What each service answers to requests no honest client sends: a clear status and the end of its side for what
 * it can read, a reset for a peer that does not finish in time; never an exception out of a handler, a hang or a
 * leaked buffer (the leak detector checks every test class).
 */
class BadRequestTest {
    private static final Duration TIMEOUT = Duration.ofMillis(400);
    private static final Duration WAIT = Duration.ofSeconds(10);
    @TempDir
    static Path dir;
    private static ServiceNode node;
    private static Host client;

    @BeforeAll
    static void start() {
        node = new ServiceNode(0, dir, new ServiceNode.Options(
                StoreServiceConfig.builder().requestTimeout(TIMEOUT).rateLimit(RateLimit.UNLIMITED).build(),
                StoreLimits.DEFAULTS,
                LightpushConfig.builder().requestTimeout(TIMEOUT).rateLimit(RateLimit.UNLIMITED).build(),
                FilterConfig.builder().requestTimeout(TIMEOUT).rateLimit(RateLimit.UNLIMITED).build()));
        client = RawExchange.clientHost(50);
    }

    @AfterAll
    static void stop() {
        client.close();
        node.close();
    }

    private static RawExchange.Result send(String protocol, byte[] bytes, boolean closeWrite) {
        return RawExchange.run(client, node.address(), protocol, bytes, closeWrite, WAIT);
    }

    /** The status code and description of the one response, whatever the protocol (all three put them in 10 and 11). */
    private static String answer(String protocol, RawExchange.Result result) {
        assertThat(result.remoteClosed()).as("the node closes its side after answering").isTrue();
        byte[] m = result.message();
        try {
            return switch (protocol) {
                case StoreServiceConfig.PROTOCOL_ID -> {
                    StoreQueryResponse r = StoreQueryResponse.parseFrom(m);
                    yield r.getStatusCode() + " " + r.getStatusDesc();
                }
                case LightpushConfig.PROTOCOL_ID -> {
                    LightPushResponse r = LightPushResponse.parseFrom(m);
                    yield r.getStatusCode() + " " + r.getStatusDesc();
                }
                default -> {
                    FilterSubscribeResponse r = FilterSubscribeResponse.parseFrom(m);
                    yield r.getStatusCode() + " " + r.getStatusDesc();
                }
            };
        } catch (InvalidProtocolBufferException e) {
            throw new AssertionError(e);
        }
    }

    private static int maxRequestBytes(String protocol) {
        return switch (protocol) {
            case StoreServiceConfig.PROTOCOL_ID -> node.store.config().maxRequestBytes();
            case LightpushConfig.PROTOCOL_ID -> node.lightpush.config().maxRequestBytes();
            default -> node.filter.config().maxRequestBytes();
        };
    }

    @ParameterizedTest
    @ValueSource(strings = {StoreServiceConfig.PROTOCOL_ID, LightpushConfig.PROTOCOL_ID, FilterConfig.SUBSCRIBE_PROTOCOL_ID})
    void aBodyThatIsNotTheRequestMessageIsAnswered400(String protocol) {
        assertThat(answer(protocol, send(protocol, RawExchange.frame(new byte[]{(byte) 0xFF, (byte) 0xFF, (byte) 0xFF}), true)))
                .startsWith("400 the request is not a ");
    }

    @ParameterizedTest
    @ValueSource(strings = {StoreServiceConfig.PROTOCOL_ID, LightpushConfig.PROTOCOL_ID, FilterConfig.SUBSCRIBE_PROTOCOL_ID})
    void aLengthPrefixThatIsNotAVarintIsAnswered400(String protocol) {
        byte[] tenContinuationBytes = new byte[10];
        java.util.Arrays.fill(tenContinuationBytes, (byte) 0x80);
        assertThat(answer(protocol, send(protocol, tenContinuationBytes, true))).startsWith("400 malformed length prefix");
    }

    @ParameterizedTest
    @ValueSource(strings = {StoreServiceConfig.PROTOCOL_ID, LightpushConfig.PROTOCOL_ID, FilterConfig.SUBSCRIBE_PROTOCOL_ID})
    void anOversizedRequestIsRefusedFromItsLengthPrefixWithoutWaitingForItsBody(String protocol) {
        int limit = maxRequestBytes(protocol);
        byte[] prefixOnly = java.util.Arrays.copyOf(RawExchange.frame(new byte[limit + 1]), 3);

        String answer = answer(protocol, send(protocol, prefixOnly, false));

        String code = protocol.equals(LightpushConfig.PROTOCOL_ID) ? "413" : "400";
        assertThat(answer).isEqualTo(code + " the request is " + (limit + 1) + " bytes, the limit is " + limit);
    }

    @ParameterizedTest
    @ValueSource(strings = {StoreServiceConfig.PROTOCOL_ID, LightpushConfig.PROTOCOL_ID, FilterConfig.SUBSCRIBE_PROTOCOL_ID})
    void aRequestCutShortByTheEndOfTheStreamIsAnswered400(String protocol) {
        byte[] half = java.util.Arrays.copyOf(RawExchange.frame(new byte[100]), 50);
        assertThat(answer(protocol, send(protocol, half, true)))
                .isEqualTo("400 the stream ended before the whole request (50 bytes received)");
        assertThat(answer(protocol, send(protocol, new byte[0], true))).isEqualTo("400 the stream ended without a request");
    }

    @ParameterizedTest
    @ValueSource(strings = {StoreServiceConfig.PROTOCOL_ID, LightpushConfig.PROTOCOL_ID, FilterConfig.SUBSCRIBE_PROTOCOL_ID})
    void aPeerThatNeverFinishesItsRequestHasItsStreamResetAfterTheTimeout(String protocol) {
        byte[] half = java.util.Arrays.copyOf(RawExchange.frame(new byte[100]), 50);
        long start = System.nanoTime();

        RawExchange.Result result = send(protocol, half, false);

        assertThat(result.received()).isEmpty();
        assertThat(result.resetCause()).isInstanceOf(P2pException.StreamReset.class);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(TIMEOUT);
    }
}
