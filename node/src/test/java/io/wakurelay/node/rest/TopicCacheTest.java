package io.wakurelay.node.rest;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TopicCacheTest {
    @Test
    void aTopicKeepsItsNewestMessagesUpToItsCapacity() {
        TopicCache cache = new TopicCache(2, 1000);
        cache.open("a");
        cache.add("a", new byte[]{1});
        cache.add("a", new byte[]{2});
        cache.add("a", new byte[]{3});
        assertThat(cache.drain("a")).extracting(b -> b[0]).containsExactly((byte) 2, (byte) 3);
        assertThat(cache.dropped()).isEqualTo(1);
        assertThat(cache.bytes()).isZero();
    }

    @Test
    void allTopicsTogetherHoldAtMostTheByteBudget() {
        TopicCache cache = new TopicCache(50, 1000);
        cache.open("a");
        cache.open("b");
        cache.add("a", new byte[600]);
        cache.add("b", new byte[300]);
        cache.add("a", new byte[600]); // a's older message makes room
        assertThat(cache.bytes()).isEqualTo(900);
        cache.add("b", new byte[800]); // b's own 300 go, and still the 600 of a leave no room: dropped
        assertThat(cache.bytes()).isEqualTo(600);
        assertThat(cache.size()).isEqualTo(1);
        assertThat(cache.dropped()).isEqualTo(3);
        assertThat(cache.drain("b")).isEmpty();
    }

    @Test
    void closingATopicGivesBackItsBytes() {
        TopicCache cache = new TopicCache(50, 1000);
        cache.open("a");
        cache.add("a", new byte[600]);
        cache.close("a");
        assertThat(cache.bytes()).isZero();
        assertThat(cache.size()).isZero();
        assertThat(cache.drain("a")).isNull();
        cache.add("a", new byte[10]);
        assertThat(cache.bytes()).as("a closed topic caches nothing").isZero();
    }
}
