package io.wakurelay.archive;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * At most {@code max} Store queries at once, whichever way they arrive (REST or {@code /vac/waku/store-query}): one
 * set of slots for the node, so the bound on the memory, snapshots and threads of the queries being answered holds
 * whatever the mix of clients. A query takes a slot before it touches the archive and gives it back when its
 * answer is done. No waiting: a query that finds every slot taken is refused at once, which is cheaper for the
 * node than a queue and tells the client to come back. Thread-safe.
 */
public final class QuerySlots {
    private final int max;
    private final AtomicInteger running = new AtomicInteger();
    private final AtomicLong refused = new AtomicLong();

    public QuerySlots(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("query slots must be positive, was " + max);
        }
        this.max = max;
    }

    /** @return whether a slot was taken; if so, {@link #release()} gives it back exactly once */
    public boolean tryAcquire() {
        while (true) {
            int now = running.get();
            if (now >= max) {
                refused.incrementAndGet();
                return false;
            }
            if (running.compareAndSet(now, now + 1)) {
                return true;
            }
        }
    }

    public void release() {
        int now = running.decrementAndGet();
        if (now < 0) {
            running.incrementAndGet();
            throw new IllegalStateException("a query slot was released more often than taken");
        }
    }

    /** Queries holding a slot now. */
    public int running() {
        return running.get();
    }

    /** Queries refused because every slot was taken, since start. */
    public long refused() {
        return refused.get();
    }

    public int max() {
        return max;
    }
}
