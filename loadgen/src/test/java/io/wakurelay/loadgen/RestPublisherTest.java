package io.wakurelay.loadgen;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.ByteString;
import io.wakurelay.node.WakuNode;
import io.wakurelay.node.rest.RestConfig;
import io.wakurelay.protocol.MessageHasher;
import io.wakurelay.protocol.PathCounters;
import io.wakurelay.protocol.PayloadMix;
import io.wakurelay.protocol.proto.WakuMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The REST bodies the load generator writes are JSON written by Jackson: whatever a topic holds arrives as it was. */
class RestPublisherTest {
    /** A quote and a backslash: a body built by concatenation breaks on the one and changes the other. */
    private static final String TOPIC = "/loadgen/1/quote\"back\\slash/proto";

    @TempDir
    Path dir;

    private static WakuMessage message(String contentTopic) {
        return WakuMessage.newBuilder().setPayload(ByteString.copyFrom("hello", StandardCharsets.UTF_8)).setContentTopic(contentTopic)
                .setTimestamp(WakuNode.nowNanos()).setMeta(ByteString.copyFrom(new byte[]{1, 2})).build();
    }

    @Test
    void aContentTopicWithAQuoteAndABackslashIsWrittenAsJsonThatReadsBackTheSame() throws Exception {
        WakuMessage m = message(TOPIC);

        JsonNode body = new ObjectMapper().readTree(RestPublisher.json(m));

        assertThat(body.get("contentTopic").asText()).isEqualTo(TOPIC);
        assertThat(body.get("timestamp").asLong()).isEqualTo(m.getTimestamp());
        assertThat(body.get("payload").asText()).isEqualTo("aGVsbG8=");
        assertThat(body.get("meta").asText()).isEqualTo("AQI=");
    }

    @Test
    void aFrameOfTheGeneratorGivesBackItsMessage() {
        Workload workload = new Workload(7, PayloadMix.parse("100:100"), 1, 0, Workload.DEFAULT_PUBSUB_TOPIC, TOPIC);
        try (FrameSet frames = new FrameSet(workload)) {
            var frame = frames.frame(0);
            WakuMessage m;
            try {
                m = RestPublisher.message(frame);
            } finally {
                frame.release();
            }
            assertThat(m.getContentTopic()).isEqualTo(TOPIC);
            assertThat(m.getPayload().size()).isEqualTo(100);
        }
    }

    @Test
    void aContentTopicWithAQuoteAndABackslashRoundTripsThroughANodesRestApiAndStore() {
        var config = InProcessNodes.config(dir.resolve("node"), io.wakurelay.archive.RocksConfig.DEFAULTS.durability(),
                "", Workload.DEFAULT_PUBSUB_TOPIC, List.of(), false).toBuilder().rest(RestConfig.builder().port(0).build()).build();
        try (WakuNode node = WakuNode.start(config)) {
            String rest = "127.0.0.1:" + node.restAddress().getPort();
            WakuMessage m = message(TOPIC);
            new RestPublisher(rest, Workload.DEFAULT_PUBSUB_TOPIC).publish(m);

            // the store is asked for that content topic (query-string encoded), and holds the message the generator hashed
            RestStoreClient store = new RestStoreClient(rest, Workload.DEFAULT_PUBSUB_TOPIC, TOPIC);
            String expected = new MessageHasher(new PathCounters()).hash(Workload.DEFAULT_PUBSUB_TOPIC, m).toHex();
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            List<String> found = List.of();
            while (found.isEmpty() && System.nanoTime() < deadline) {
                found = store.newHashes(0);
                InProcessNodes.sleep(50);
            }
            assertThat(found).containsExactly(expected);
        }
    }
}
