package io.wakurelay.node.store;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * At most {@code max} queries at once. A query takes a slot before it touches the archive and gives it back
 * when its page is closed, which for REST is when the last byte of the answer was written: so the slots bound
 * the memory, snapshots and threads of everything being answered, slow readers included. No waiting: a query that
 * finds every slot taken is refused at once, which is cheaper for the node than a queue and tells the client.
 */
final class QueryLimiter {
    private final int max;
    private final AtomicInteger running = new AtomicInteger();
    private final AtomicLong refused = new AtomicLong();

    QueryLimiter(int max) {
        this.max = max;
    }

    /** @return whether a slot was taken; if so, {@link #release()} gives it back exactly once */
    boolean tryAcquire() {
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

    void release() {
        running.decrementAndGet();
    }

    int running() {
        return running.get();
    }

    long refused() {
        return refused.get();
    }

    int max() {
        return max;
    }
}
