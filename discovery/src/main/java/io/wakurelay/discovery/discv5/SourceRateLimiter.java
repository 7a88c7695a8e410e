package io.wakurelay.discovery.discv5;

import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A token bucket per source address (rate r per second, r × 2 deep), for at most {@code capacity} sources: the least
 * recently seen source is forgotten first (it then starts again with a full bucket, which costs a flooder nothing it
 * could not already do by using more addresses). Event-loop confined.
 */
final class SourceRateLimiter {

    private static final class Bucket {
        double tokens;
        long lastNanos;
    }

    private final double ratePerNano;
    private final double depth;
    private final Map<InetSocketAddress, Bucket> buckets;

    SourceRateLimiter(int perSecond, int capacity) {
        this.ratePerNano = perSecond / 1e9;
        this.depth = perSecond * 2.0;
        this.buckets = new LinkedHashMap<>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<InetSocketAddress, Bucket> eldest) {
                return size() > capacity;
            }
        };
    }

    boolean tryAcquire(InetSocketAddress source, long nowNanos) {
        Bucket bucket = buckets.get(source);
        if (bucket == null) {
            bucket = new Bucket();
            bucket.tokens = depth;
            bucket.lastNanos = nowNanos;
            buckets.put(source, bucket);
        }
        bucket.tokens = Math.min(depth, bucket.tokens + (nowNanos - bucket.lastNanos) * ratePerNano);
        bucket.lastNanos = nowNanos;
        if (bucket.tokens < 1) {
            return false;
        }
        bucket.tokens -= 1;
        return true;
    }

    int size() {
        return buckets.size();
    }
}
