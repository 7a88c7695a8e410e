package io.wakurelay.services;

import java.util.concurrent.atomic.AtomicInteger;

/** At most {@code max} tasks at once; a task that finds no slot is refused at once, not queued. Thread-safe. */
final class ConcurrencyLimit {
    private final int max;
    private final AtomicInteger inUse = new AtomicInteger();

    ConcurrencyLimit(int max) {
        this.max = max;
    }

    /** Takes a slot when one is free; the caller then calls {@link #release()} exactly once. */
    boolean tryAcquire() {
        while (true) {
            int now = inUse.get();
            if (now >= max) {
                return false;
            }
            if (inUse.compareAndSet(now, now + 1)) {
                return true;
            }
        }
    }

    void release() {
        inUse.decrementAndGet();
    }

    int inUse() {
        return inUse.get();
    }

    int max() {
        return max;
    }
}
