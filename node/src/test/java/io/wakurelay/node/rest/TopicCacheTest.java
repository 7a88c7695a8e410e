package io.wakurelay.node.rest;

import com.google.protobuf.ByteString;
import io.netty.buffer.PooledByteBufAllocator;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.EnvelopeEncoder;
import io.wakurelay.protocol.MessageValidator;
import io.wakurelay.protocol.PathCounters;
import io.wakurelay.protocol.ProtocolLimits;
import io.wakurelay.protocol.proto.WakuMessage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The cache keeps envelopes as they arrived (retained, not copied), within a count per topic and a byte budget. */
class TopicCacheTest {
    private static final EnvelopeEncoder ENCODER = new EnvelopeEncoder(
            new MessageValidator(ProtocolLimits.DEFAULTS, System::nanoTime), new PathCounters());
    private final List<Envelope> made = new ArrayList<>();

    /** An envelope whose buffer holds about {@code size} bytes; the test's own reference is released after each test. */
    private Envelope envelope(int size, int tag) {
        WakuMessage m = WakuMessage.newBuilder().setContentTopic("/t/1/c/proto")
                .setPayload(ByteString.copyFrom(new byte[Math.max(1, size - 20)])).setTimestamp(tag).build();
        Envelope e = ENCODER.encode("/waku/2/rs/0/0", m, PooledByteBufAllocator.DEFAULT);
        made.add(e);
        return e;
    }

    @AfterEach
    void releaseOwnReferences() {
        made.forEach(e -> assertThat(e.release()).as("the cache gave back every reference it took").isTrue());
    }

    @Test
    void aTopicKeepsItsNewestMessagesUpToItsCapacity() {
        TopicCache cache = new TopicCache(2, 100_000);
        cache.open("a");
        cache.add("a", envelope(30, 1));
        cache.add("a", envelope(30, 2));
        cache.add("a", envelope(30, 3));
        List<Envelope> drained = cache.drain("a");
        assertThat(drained).extracting(e -> e.message().timestamp()).containsExactly(2L, 3L);
        drained.forEach(Envelope::release);
        assertThat(cache.dropped()).isEqualTo(1);
        assertThat(cache.bytes()).isZero();
    }

    @Test
    void allTopicsTogetherHoldAtMostTheByteBudgetOfWhatTheEnvelopesKeepAlive() {
        Envelope big = envelope(600, 1);
        Envelope small = envelope(300, 2);
        TopicCache cache = new TopicCache(50, big.retainedBytes() + small.retainedBytes());
        cache.open("a");
        cache.open("b");
        cache.add("a", big);
        cache.add("b", small);
        cache.add("a", envelope(600, 3)); // a's older message makes room
        assertThat(cache.bytes()).isEqualTo(big.retainedBytes() + small.retainedBytes());
        cache.add("b", envelope(1000, 4)); // b's own message goes, and still a's leaves no room: dropped
        assertThat(cache.bytes()).isEqualTo(big.retainedBytes());
        assertThat(cache.size()).isEqualTo(1);
        assertThat(cache.dropped()).isEqualTo(3);
        assertThat(cache.drain("b")).isEmpty();
        cache.close();
    }

    @Test
    void closingATopicGivesBackItsBytesAndReferences() {
        TopicCache cache = new TopicCache(50, 100_000);
        cache.open("a");
        Envelope e = envelope(600, 1);
        cache.add("a", e);
        assertThat(e.refCnt()).as("kept, not copied").isEqualTo(2);
        cache.close("a");
        assertThat(e.refCnt()).isEqualTo(1);
        assertThat(cache.bytes()).isZero();
        assertThat(cache.size()).isZero();
        assertThat(cache.drain("a")).isNull();
        cache.add("a", envelope(10, 2));
        assertThat(cache.bytes()).as("a closed topic caches nothing").isZero();
    }

    @Test
    void aClosedCacheReleasesEverythingAndKeepsNothingMore() {
        TopicCache cache = new TopicCache(50, 100_000);
        cache.open("a");
        Envelope e = envelope(100, 1);
        cache.add("a", e);
        cache.close();
        assertThat(e.refCnt()).isEqualTo(1);
        cache.add("a", envelope(100, 2));
        assertThat(cache.size()).as("nothing kept once the node stops").isZero();
    }
}
