package io.wakurelay.loadgen;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class TimelineTest {
    @Test
    void aLongRunKeepsAtMostItsBoundOfSamplesSpreadOverTheWholeWindowInOrder() throws Exception {
        AtomicLong done = new AtomicLong();
        Timeline timeline = new Timeline(done::incrementAndGet, Duration.ofMillis(1), 16);
        Thread.sleep(300); // about 300 ticks: the 16 samples were halved several times
        Timeline.Series series = timeline.stop();

        assertThat(series.size()).isBetween(2, 16);
        for (int i = 1; i < series.size(); i++) {
            assertThat(series.nanos()[i]).isGreaterThan(series.nanos()[i - 1]);
            assertThat(series.done()[i]).isGreaterThan(series.done()[i - 1]);
            assertThat(series.gcCount()[i]).isGreaterThanOrEqualTo(series.gcCount()[i - 1]);
        }
        assertThat(series.nanos()[0]).as("the first sample is the start").isLessThan(Duration.ofMillis(50).toNanos());
        assertThat(series.nanos()[series.size() - 1]).as("the last is the stop").isGreaterThan(Duration.ofMillis(250).toNanos());
        assertThat(java.util.Arrays.stream(series.heapBytes()).min().orElseThrow()).isPositive();
    }

    @Test
    void theRateAtEachSampleIsTheMessagesOfTheSecondBeforeIt() {
        int n = 50;
        long[] nanos = new long[n];
        long[] done = new long[n];
        for (int i = 0; i < n; i++) {
            nanos[i] = i * 100_000_000L;             // a sample every 100 ms
            done[i] = i < 25 ? i * 100L : 2_500 + (i - 25) * 300L; // 1,000 msg/s, then 3,000 msg/s
        }
        double[] rates = TimelinePlots.rates(new Timeline.Series(nanos, done, new long[n], new long[n]));

        assertThat(rates[10]).isEqualTo(1_000.0);
        assertThat(rates[45]).isEqualTo(3_000.0);
        assertThat(rates[30]).as("half a second of each").isEqualTo(2_000.0);
    }
}
