package io.wakurelay.protocol;

import java.time.Instant;

/** The wall clock in Unix nanoseconds, the unit of WakuMessage timestamps (RFC 14), for every module. */
public final class WallClock {
    private WallClock() {
    }

    public static long nowNanos() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }
}
