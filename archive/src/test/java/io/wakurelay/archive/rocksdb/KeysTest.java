package io.wakurelay.archive.rocksdb;

import io.wakurelay.protocol.MessageHash;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

class KeysTest {
    @Test
    void timestampBytesSortLikeSignedNumbers() {
        long[] timestamps = {Long.MIN_VALUE, -1_000_000_000L, -1, 0, 1, 255, 256, 1_700_000_000_000_000_000L, Long.MAX_VALUE};
        for (int i = 0; i + 1 < timestamps.length; i++) {
            byte[] a = Keys.firstTailAt(timestamps[i]);
            byte[] b = Keys.firstTailAt(timestamps[i + 1]);
            assertThat(Keys.compare(a, b)).as("%d before %d", timestamps[i], timestamps[i + 1]).isNegative();
            assertThat(Keys.timestampOfTail(a)).isEqualTo(timestamps[i]);
        }
    }

    @Test
    void tailsSortByTimestampThenUnsignedHash() {
        SplittableRandom random = new SplittableRandom(7);
        List<byte[]> tails = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            byte[] hash = new byte[32];
            random.nextBytes(hash);
            long ts = random.nextInt(5) - 2;
            tails.add(Keys.tail(ts, hash));
        }
        tails.sort(Keys::compare);
        for (int i = 0; i + 1 < tails.size(); i++) {
            long t1 = Keys.timestampOfTail(tails.get(i));
            long t2 = Keys.timestampOfTail(tails.get(i + 1));
            assertThat(t1).isLessThanOrEqualTo(t2);
            if (t1 == t2) {
                assertThat(Keys.hashOfTail(tails.get(i)).compareTo(Keys.hashOfTail(tails.get(i + 1)))).isNegative();
            }
        }
    }

    @Test
    void aTopicThatPrefixesAnotherDoesNotShareItsKeyRange() {
        byte[] shard1 = Keys.pubsubPrefix("/waku/2/rs/0/1");
        byte[] shard10 = Keys.pubsubPrefix("/waku/2/rs/0/10");
        byte[] lastOfShard1 = Keys.concat(shard1, Keys.lastTailAt(Long.MAX_VALUE));
        byte[] firstOfShard10 = Keys.concat(shard10, Keys.firstTailAt(Long.MIN_VALUE));
        assertThat(Keys.compare(lastOfShard1, firstOfShard10)).isNegative();
        assertThat(startsWith(firstOfShard10, shard1)).isFalse();

        byte[] contentA = Keys.contentPrefix("/waku/2/rs/0/1", "/app/1/a/proto");
        byte[] contentAb = Keys.contentPrefix("/waku/2/rs/0/1", "/app/1/a/protob");
        assertThat(startsWith(Keys.concat(contentAb, Keys.firstTailAt(0)), contentA)).isFalse();
    }

    @Test
    void valuesRoundTrip() {
        byte[] time = Keys.timeValue(150_000, Keys.utf8("/waku/2/rs/0/0"), Keys.utf8("/app/1/ü/proto"));
        assertThat(Keys.sizeOfTimeValue(time)).isEqualTo(150_000);
        assertThat(Keys.string(Keys.pubsubOfTimeValue(time))).isEqualTo("/waku/2/rs/0/0");
        assertThat(Keys.string(Keys.contentOfTimeValue(time))).isEqualTo("/app/1/ü/proto");

        byte[] info = Keys.infoValue(-42, Keys.utf8("/waku/2/rs/3/4"));
        assertThat(Keys.timestampOfInfo(info)).isEqualTo(-42);
        assertThat(Keys.pubsubOfInfo(info)).isEqualTo("/waku/2/rs/3/4");

        for (long v : new long[]{0, 1, -1, Long.MAX_VALUE, 123_456_789_012L}) {
            assertThat(Keys.readUint64(Keys.uint64(v))).isEqualTo(v);
        }
        assertThat(Keys.readUint64(null)).isZero();
    }

    @Test
    void theHashIsTheTailsLast32Bytes() {
        byte[] hash = new byte[32];
        Arrays.fill(hash, (byte) 0xAB);
        byte[] tail = Keys.tail(99, hash);
        assertThat(Keys.hashOfTail(tail)).isEqualTo(MessageHash.of(hash));
        assertThat(Keys.tailOf(Keys.concat(Keys.pubsubPrefix("/waku/2/x"), tail))).isEqualTo(tail);
    }

    private static boolean startsWith(byte[] key, byte[] prefix) {
        return key.length >= prefix.length && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
    }
}
