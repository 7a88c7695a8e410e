package io.wakurelay.node.rest;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class OriginPolicyTest {
    @Test
    void noPatternAllowsNothing() {
        OriginPolicy none = new OriginPolicy(List.of());
        assertThat(none.allows("http://localhost:3000")).isFalse();
        assertThat(none.allows("null")).isFalse();
    }

    @Test
    void patternsMatchTheOriginWithOrWithoutItsSchemeAsNwakuDocumentsThem() {
        OriginPolicy origins = new OriginPolicy(List.of("localhost:*", "127.0.0.1:8080", "https://app.example", "waku-?.example"));
        assertThat(origins.allows("http://localhost:3000")).isTrue();
        assertThat(origins.allows("https://LOCALHOST:443")).isTrue();
        assertThat(origins.allows("http://127.0.0.1:8080")).isTrue();
        assertThat(origins.allows("http://127.0.0.1:8081")).isFalse();
        assertThat(origins.allows("https://app.example")).isTrue();
        assertThat(origins.allows("http://app.example")).as("the scheme is part of that pattern").isFalse();
        assertThat(origins.allows("https://waku-1.example")).isTrue();
        assertThat(origins.allows("https://waku-12.example")).isFalse();
        assertThat(origins.allows("http://localhost.evil.example:1")).isFalse();
        assertThat(origins.allows("http://evil.example")).isFalse();
    }

    @Test
    void aStarAllowsEveryOrigin() {
        assertThat(new OriginPolicy(List.of("*")).allows("http://evil.example")).isTrue();
    }

    @Test
    void regexCharactersInPatternsAreLiteral() {
        OriginPolicy origins = new OriginPolicy(List.of("a.b"));
        assertThat(origins.allows("http://a.b")).isTrue();
        assertThat(origins.allows("http://axb")).isFalse();
    }
}
