package io.wakurelay.node.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.wakurelay.protocol.proto.WakuMessage;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** Publish bodies as nwaku's REST API reads them (its RelayWakuMessage). */
class MessageJsonTest {
    private static final long NOW = 1_796_231_850_644_333_952L;
    private static final ObjectMapper JSON = new ObjectMapper();

    private static WakuMessage read(String body) throws Exception {
        return MessageJson.read(JSON.readTree(body), NOW);
    }

    private static String badRequest(String body) throws Exception {
        JsonNode tree = JSON.readTree(body);
        HttpError e = catchThrowableOfType(HttpError.class, () -> MessageJson.read(tree, NOW));
        assertThat(e).as(body).isNotNull();
        assertThat(e.status().code()).isEqualTo(400);
        return e.getMessage();
    }

    /** nwaku's reader logs an unknown field's name, then fails on its value: a 400, whatever the field. */
    @Test
    void anUnknownFieldOrANullValueIsRefusedAsNwakuRefusesThem() throws Exception {
        for (String body : new String[]{"{\"payload\":\"aGk=\",\"contentTopic\":\"/app/1/t/proto\",\"pubsubTopic\":\"/waku/2/rs/0/0\"}",
                "{\"payload\":\"aGk=\",\"contentTopic\":\"/app/1/t/proto\",\"extra\":{\"a\":[1]}}",
                "{\"payload\":\"aGk=\",\"contentTopic\":\"/app/1/t/proto\",\"timestamp\":null}",
                "{\"payload\":\"aGk=\",\"contentTopic\":\"/app/1/t/proto\",\"ephemeral\":null}"}) {
            assertThatThrownBy(() -> read(body)).as(body).isInstanceOf(HttpError.class)
                    .hasMessageStartingWith("Invalid content body, could not decode: Unable to deserialize data: ");
        }
        assertThat(read("{\"payload\":\"aGk=\",\"contentTopic\":\"Hello World!\"}").getPayload().toString(StandardCharsets.UTF_8))
                .isEqualTo("hi");
    }

    @Test
    void aTimestampOfZeroOrNoneMeansNow() throws Exception {
        assertThat(read("{\"payload\":\"aGk=\",\"contentTopic\":\"/app/1/t/proto\",\"timestamp\":0}").getTimestamp()).isEqualTo(NOW);
        assertThat(read("{\"payload\":\"aGk=\",\"contentTopic\":\"/app/1/t/proto\"}").getTimestamp()).isEqualTo(NOW);
        assertThat(read("{\"payload\":\"aGk=\",\"contentTopic\":\"/app/1/t/proto\",\"timestamp\":5}").getTimestamp()).isEqualTo(5);
    }

    @Test
    void nwakusProofFieldIsTheRateLimitProof() throws Exception {
        WakuMessage m = read("{\"payload\":\"aGk=\",\"contentTopic\":\"/app/1/t/proto\",\"proof\":\"cHJvb2Y=\"}");

        assertThat(m.getRateLimitProof().toString(StandardCharsets.UTF_8)).isEqualTo("proof");
        assertThat(badRequest("{\"payload\":\"aGk=\",\"contentTopic\":\"/app/1/t/proto\",\"proof\":\"cHJvb2Y=\",\"rateLimitProof\":\"cHJvb2Y=\"}"))
                .contains("not both");
        assertThat(badRequest("{\"payload\":\"aGk=\",\"contentTopic\":\"/app/1/t/proto\",\"proof\":7}")).contains("proof must be a base64 string");
    }

    @Test
    void whatNwakuRefusesIsA400() throws Exception {
        assertThat(badRequest("{\"payload\":\"\",\"contentTopic\":\"/app/1/t/proto\"}")).contains("payload is missing or empty");
        assertThat(badRequest("{\"payload\":\"  \",\"contentTopic\":\"/app/1/t/proto\"}")).contains("payload is missing or empty");
        assertThat(badRequest("{\"contentTopic\":\"/app/1/t/proto\"}")).contains("payload is missing or empty");
        assertThat(badRequest("{\"payload\":\"aGk=\"}")).contains("contentTopic is missing or empty");
        assertThat(badRequest("{\"payload\":\"aGk=\",\"contentTopic\":\" \"}")).contains("contentTopic is missing or empty");
        assertThat(badRequest("{\"payload\":\"aGk=\",\"contentTopic\":\"/app/1/t/proto\",\"version\":-1}")).contains("version");
        assertThat(badRequest("{\"payload\":\"aGk=\",\"contentTopic\":\"/app/1/t/proto\",\"ephemeral\":\"yes\"}")).contains("ephemeral");
    }
}
