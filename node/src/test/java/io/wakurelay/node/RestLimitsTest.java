package io.wakurelay.node;

import io.wakurelay.node.rest.RestConfig;
import io.wakurelay.node.rest.TopicCache;
import io.wakurelay.protocol.AutoSharding;
import io.wakurelay.relay.RelayConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.wakurelay.testkit.Eventually;

import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Past each limit a REST client can reach, the answer is a 4xx that names the limit, nothing is half done, and the
 * node goes on serving: pubsub topics past the relay's {@code maxTopics} (1,024; it was a 500 with a stack trace),
 * content topics past {@link TopicCache#MAX_CONTENT_TOPICS}, event streams past {@code --rest-max-streams}, requests in
 * flight past the streams and 256 more.
 */
class RestLimitsTest {
    private static final String DEFAULT_TOPIC = "/waku/2/rs/0/0";
    private static final int MAX_TOPICS = RelayConfig.DEFAULTS.maxTopics();

    @TempDir
    Path dir;

    private static String topics(IntStream shards) {
        return shards.mapToObj(n -> "\"/waku/2/rs/0/" + n + "\"").toList().toString();
    }

    private static String publish() {
        return "{\"payload\":\"aGk=\",\"contentTopic\":\"/app/1/limits/proto\"}";
    }

    @Test
    void subscribingPastTheTopicLimitIsA400NamingItAndChangesNothing() {
        try (WakuNode node = WakuNode.start(TestNodes.local(dir).build())) {
            Http rest = new Http(node.restAddress());
            // the node relays /waku/2/rs/0/0 from the start: 1,024 more topics are one too many
            Http.Reply refused = rest.post("/relay/v1/subscriptions", topics(IntStream.rangeClosed(1, MAX_TOPICS)));
            assertThat(refused.status()).as(refused.body()).isEqualTo(400);
            assertThat(refused.body()).contains("too many pubsub topics", String.valueOf(MAX_TOPICS))
                    .doesNotContain("Exception", "internal error");
            assertThat(node.relay().subscriptions()).containsExactly(DEFAULT_TOPIC);
            assertThat(rest.get("/relay/v1/messages/" + Http.topic("/waku/2/rs/0/7")).status())
                    .as("no REST cache was opened for a refused topic").isEqualTo(404);

            // up to the limit is fine, and one more is refused the same way
            assertThat(rest.post("/relay/v1/subscriptions", topics(IntStream.range(1, MAX_TOPICS))).status()).isEqualTo(200);
            assertThat(node.relay().subscriptions()).hasSize(MAX_TOPICS);
            Http.Reply oneMore = rest.post("/relay/v1/subscriptions", topics(IntStream.of(MAX_TOPICS)));
            assertThat(oneMore.status()).as(oneMore.body()).isEqualTo(400);
            assertThat(oneMore.body()).contains(String.valueOf(MAX_TOPICS));

            // the node goes on serving
            assertThat(rest.post("/relay/v1/messages/" + Http.topic(DEFAULT_TOPIC), publish()).status()).isEqualTo(200);
            assertThat(rest.delete("/relay/v1/subscriptions", topics(IntStream.range(1, MAX_TOPICS))).status()).isEqualTo(200);
            assertThat(rest.post("/relay/v1/subscriptions", topics(IntStream.of(MAX_TOPICS))).status()).isEqualTo(200);
        }
    }

    @Test
    void contentTopicsPastTheirCacheLimitAreA400NamingItAndOpenNothing() {
        try (WakuNode node = WakuNode.start(TestNodes.local(dir).autoSharding(new AutoSharding(0, 8)).build())) {
            Http rest = new Http(node.restAddress());
            String tooMany = IntStream.rangeClosed(0, TopicCache.MAX_CONTENT_TOPICS)
                    .mapToObj(n -> "\"/app/1/topic-" + n + "/proto\"").toList().toString();
            Http.Reply refused = rest.post("/relay/v1/auto/subscriptions", tooMany);
            assertThat(refused.status()).as(refused.body()).isEqualTo(400);
            assertThat(refused.body()).contains("too many content topics", String.valueOf(TopicCache.MAX_CONTENT_TOPICS));
            assertThat(rest.get("/relay/v1/auto/messages/" + Http.topic("/app/1/topic-3/proto")).status())
                    .as("no cache was opened").isEqualTo(404);

            String justEnough = IntStream.range(0, TopicCache.MAX_CONTENT_TOPICS)
                    .mapToObj(n -> "\"/app/1/topic-" + n + "/proto\"").toList().toString();
            assertThat(rest.post("/relay/v1/auto/subscriptions", justEnough).status()).isEqualTo(200);
            assertThat(rest.post("/relay/v1/auto/subscriptions", "[\"/app/1/one-more/proto\"]").status()).isEqualTo(400);
            assertThat(rest.get("/relay/v1/auto/messages/" + Http.topic("/app/1/topic-3/proto")).status()).isEqualTo(200);
        }
    }

    @Test
    void anEventStreamPastTheLimitIsA429NamingIt() {
        RestConfig oneStream = TestNodes.rest().maxStreams(1).build();
        try (WakuNode node = WakuNode.start(TestNodes.local(dir).rest(oneStream).build())) {
            Http rest = new Http(node.restAddress());
            String path = "/relay/v1/stream/" + Http.topic(DEFAULT_TOPIC);
            rest.stream(path);
            Http.Reply refused = rest.get(path);
            assertThat(refused.status()).as(refused.body()).isEqualTo(429);
            assertThat(refused.body()).contains("--rest-max-streams", "at most 1");
            assertThat(rest.get("/health").status()).isEqualTo(200);
        }
    }

    @Test
    void requestsThatNeverFinishHoldAtMostTheInFlightBoundAndTheNextIsA503AtOnce() throws Exception {
        RestConfig noStreams = TestNodes.rest().maxStreams(0).build();
        List<Socket> stuck = new ArrayList<>();
        try (WakuNode node = WakuNode.start(TestNodes.local(dir).rest(noStreams).metrics(TestNodes.metrics()).build())) {
            Http rest = new Http(node.restAddress());
            Http metrics = new Http(node.metricsAddress());
            // clients that announce a body and never send it: each one is a request being answered
            byte[] head = ("POST /relay/v1/messages/" + Http.topic(DEFAULT_TOPIC) + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
            for (int i = 0; i < 256; i++) {
                Socket socket = new Socket(node.restAddress().getAddress(), node.restAddress().getPort());
                stuck.add(socket);
                socket.getOutputStream().write(head);
            }
            Eventually.until(() -> Http.metric(metrics.get("/metrics").body(), "waku_rest_requests_in_flight") >= 256,
                    Duration.ofSeconds(20), () -> metrics.get("/metrics").body().lines()
                            .filter(l -> l.startsWith("waku_rest_requests")).toList().toString());

            Http.Reply refused = rest.get("/health");
            assertThat(refused.status()).as(refused.body()).isEqualTo(503);
            assertThat(refused.body()).contains("256 requests already");
            assertThat(Http.metric(metrics.get("/metrics").body(), "waku_rest_requests_refused_total")).isEqualTo(1);
            for (Socket socket : stuck) { // the stuck clients leave: their requests end with their connections
                socket.close();
            }
            Eventually.until(() -> rest.get("/health").status() == 200, Duration.ofSeconds(20), () -> "still refused");
        } finally {
            for (Socket socket : stuck) {
                socket.close();
            }
        }
    }
}
