package io.wakurelay.node.rest;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

class FilterMessageCacheTest {
    private static byte[] json(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static List<String> texts(List<byte[]> cached) {
        return cached.stream().map(b -> new String(b, StandardCharsets.UTF_8)).toList();
    }

    @Test
    void aContentTopicNotSubscribedHasNoCacheAndItsPushesAreNotKept() {
        FilterMessageCache cache = new FilterMessageCache(10, 1000);
        cache.add("/waku/2/rs/0/0", "/a/1/x/proto", json("{}"));
        assertThat(cache.drain("/a/1/x/proto", null)).isNull();
        assertThat(cache.size()).isZero();
    }

    @Test
    void theOldestAreDroppedPastTheCapacityAndCounted() {
        FilterMessageCache cache = new FilterMessageCache(2, 1000);
        cache.open(List.of("/a/1/x/proto"));
        IntStream.range(0, 5).forEach(i -> cache.add("/waku/2/rs/0/0", "/a/1/x/proto", json("m" + i)));
        assertThat(cache.dropped()).isEqualTo(3);
        assertThat(texts(cache.drain("/a/1/x/proto", null))).containsExactly("m3", "m4");
        assertThat(cache.drain("/a/1/x/proto", null)).isEmpty();
        assertThat(cache.bytes()).isZero();
    }

    @Test
    void theByteBudgetHoldsForAllContentTopicsTogether() {
        FilterMessageCache cache = new FilterMessageCache(100, 10);
        cache.open(List.of("/a/1/x/proto", "/a/1/y/proto"));
        cache.add("/waku/2/rs/0/0", "/a/1/x/proto", json("12345678"));
        cache.add("/waku/2/rs/0/0", "/a/1/y/proto", json("12345"));
        assertThat(cache.dropped()).as("y's message does not fit beside x's").isEqualTo(1);
        assertThat(cache.bytes()).isEqualTo(8);
    }

    @Test
    void withAPubsubTopicOnlyTheMessagesThatCameOnItAreTakenAndTheOthersStay() {
        FilterMessageCache cache = new FilterMessageCache(10, 1000);
        cache.open(List.of("/a/1/x/proto"));
        cache.add("/waku/2/rs/0/0", "/a/1/x/proto", json("on0"));
        cache.add("/waku/2/rs/0/1", "/a/1/x/proto", json("on1"));
        assertThat(texts(cache.drain("/a/1/x/proto", "/waku/2/rs/0/1"))).containsExactly("on1");
        assertThat(texts(cache.drain("/a/1/x/proto", null))).containsExactly("on0");
    }

    @Test
    void closingForgetsWhatWasCachedAndAtMostTheBoundOfContentTopicsOpen() {
        FilterMessageCache cache = new FilterMessageCache(10, 1000);
        cache.open(List.of("/a/1/x/proto"));
        cache.add("/waku/2/rs/0/0", "/a/1/x/proto", json("m"));
        cache.close(List.of("/a/1/x/proto"));
        assertThat(cache.size()).isZero();
        assertThat(cache.bytes()).isZero();
        List<String> many = IntStream.range(0, TopicCache.MAX_CONTENT_TOPICS + 1).mapToObj(i -> "/a/1/t" + i + "/proto").toList();
        assertThat(cache.open(many)).isFalse();
        assertThat(cache.open(many.subList(0, TopicCache.MAX_CONTENT_TOPICS))).isTrue();
    }
}
