package io.wakurelay.protocol;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TopicsTest {
    private static final int MAX = 256;

    @ParameterizedTest
    @ValueSource(strings = {"/waku/2/rs/0/0", "/waku/2/rs/65535/1023", "/waku/2/default-waku/proto", "/waku/2/my-app"})
    void acceptsShardedAndNamedPubsubTopics(String topic) {
        assertThatCode(() -> Topics.checkPubsubTopic(topic, MAX)).doesNotThrowAnyException();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "waku/2/rs/0/0", "/waku/1/rs/0/0", "/waku/2/", "/waku/2/rs/0", "/waku/2/rs/0/x",
            "/waku/2/rs/70000/0", "/waku/2/rs/0/0/", "/waku/2/a b", "/waku/2/<script>", "/waku/2/x'; DROP TABLE m;--",
            "/waku/2/a\u0000b", "/waku/2//x"})
    void rejectsMalformedPubsubTopics(String topic) {
        assertThatThrownBy(() -> Topics.checkPubsubTopic(topic, MAX))
                .isInstanceOf(ProtocolViolation.class)
                .extracting(e -> ((ProtocolViolation) e).violation()).isEqualTo(Violation.INVALID_PUBSUB_TOPIC);
    }

    @Test
    void rejectsOverlongTopicsCountingUtf8Bytes() {
        String ascii = "/waku/2/" + "a".repeat(MAX);
        String wide = "/waku/2/" + "é".repeat(MAX / 2);
        assertThatThrownBy(() -> Topics.checkPubsubTopic(ascii, MAX)).hasMessageContaining("longer than 256 bytes");
        assertThatThrownBy(() -> Topics.checkPubsubTopic(wide, MAX)).hasMessageContaining("longer than 256 bytes");
    }

    @ParameterizedTest
    @ValueSource(strings = {"/waku/2/default-content/proto", "/app/1/chat/proto", "/0/app/1/chat/proto", "/toy-chat/2/huilong/proto"})
    void acceptsFourPartContentTopicsWhereAShardIsDerived(String topic) {
        assertThatCode(() -> Topics.checkShardableContentTopic(topic, MAX)).doesNotThrowAnyException();
    }

    @ParameterizedTest
    @ValueSource(strings = {"app/1/chat/proto", "/app/1/chat", "/a/b/c/d/e/f", "/x/app/1/chat/proto", "/app//chat/proto",
            "/app/1/ch at/proto", "/app/1/\"chat\"/proto", "Hello World!"})
    void rejectsContentTopicsThatAreNotFourPartWhereAShardIsDerived(String topic) {
        assertThatThrownBy(() -> Topics.checkShardableContentTopic(topic, MAX))
                .isInstanceOf(ProtocolViolation.class)
                .extracting(e -> ((ProtocolViolation) e).violation()).isEqualTo(Violation.INVALID_CONTENT_TOPIC);
    }

    /** nwaku relays any non-empty content topic (its relay validator never parses one); a message's topic is free-form. */
    @ParameterizedTest
    @ValueSource(strings = {"Hello World!", "chat", "app/1/chat/proto", "/a/b/c/d/e/f", "/app/1/\"chat\"/proto", " ", "ünïcödé", "\n"})
    void acceptsAnyNonEmptyContentTopicOnAMessage(String topic) {
        assertThatCode(() -> Topics.checkContentTopic(topic, MAX)).doesNotThrowAnyException();
    }

    @Test
    void aMessagesContentTopicMayNotHoldNulNorPassTheLengthLimit() {
        assertThatThrownBy(() -> Topics.checkContentTopic("/app/1/ch\0at/proto", MAX))
                .extracting(e -> ((ProtocolViolation) e).violation()).isEqualTo(Violation.INVALID_CONTENT_TOPIC);
        assertThatThrownBy(() -> Topics.checkContentTopic("x".repeat(MAX + 1), MAX))
                .extracting(e -> ((ProtocolViolation) e).violation()).isEqualTo(Violation.INVALID_CONTENT_TOPIC);
    }

    @Test
    void missingContentTopicHasItsOwnReason() {
        assertThatThrownBy(() -> Topics.checkContentTopic("", MAX))
                .extracting(e -> ((ProtocolViolation) e).violation()).isEqualTo(Violation.MISSING_CONTENT_TOPIC);
        assertThatThrownBy(() -> Topics.checkShardableContentTopic("", MAX))
                .extracting(e -> ((ProtocolViolation) e).violation()).isEqualTo(Violation.MISSING_CONTENT_TOPIC);
    }

    @Test
    void errorMessagesEscapeControlCharacters() {
        assertThatThrownBy(() -> Topics.checkPubsubTopic("/waku/2/a\nb", MAX)).hasMessageContaining("a\\u000ab");
    }

    @Test
    void theShardOfAStaticShardingTopicIsItsLastNumberAndOtherTopicsHaveNone() {
        assertThat(Topics.shardOf("/waku/2/rs/0/0")).hasValue(0);
        assertThat(Topics.shardOf("/waku/2/rs/1/65535")).hasValue(65535);
        assertThat(Topics.shardOf("/waku/2/rs/1/65536")).isEmpty();
        assertThat(Topics.shardOf("/waku/2/rs/1")).isEmpty();
        assertThat(Topics.shardOf("/waku/2/default-waku/proto")).isEmpty();
    }
}
