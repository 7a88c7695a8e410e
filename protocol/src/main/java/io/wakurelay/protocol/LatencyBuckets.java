package io.wakurelay.protocol;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The explicit bucket bounds of every latency histogram the node exports: a 1-2.5-5 series from a lowest to a
 * highest bound. Micrometer's percentile histograms publish about 90 buckets per timer, which made 448 bucket
 * series per node; a dozen fixed bounds per timer answer the same dashboard questions (p50, p99 within a factor
 * of about two) at a tenth of the series, as nwaku's histograms do.
 */
public final class LatencyBuckets {
    private static final double[] STEPS = {1, 2.5, 5};

    private LatencyBuckets() {
    }

    /** @return the bounds of the 1-2.5-5 series (1, 2.5, 5, 10, 25, ... nanoseconds) that lie in [lowest, highest] */
    public static Duration[] between(Duration lowest, Duration highest) {
        long low = lowest.toNanos();
        long high = highest.toNanos();
        if (low <= 0 || high < low) {
            throw new IllegalArgumentException("need 0 < lowest <= highest, was " + lowest + ", " + highest);
        }
        List<Duration> bounds = new ArrayList<>();
        for (double decade = Math.pow(10, Math.floor(Math.log10(low))); decade <= high; decade *= 10) {
            for (double step : STEPS) {
                long bound = Math.round(decade * step);
                if (bound >= low && bound <= high) {
                    bounds.add(Duration.ofNanos(bound));
                }
            }
        }
        return bounds.toArray(Duration[]::new);
    }
}
