package io.wakurelay.loadgen;

import io.wakurelay.protocol.MessageHash;

import java.time.Duration;

/**
 * Polls a remote store for newly archived messages and reports them to a tracker, until closed. The interval bounds
 * the latency's resolution, and each poll is a Store query the node answers beside its work.
 */
final class StorePoller implements AutoCloseable {
    static final Duration DEFAULT_INTERVAL = Duration.ofMillis(20);

    private final Periodic polling;

    StorePoller(RestStoreClient store, long startTimeNanos, Tracker tracker) {
        this(store, startTimeNanos, tracker, DEFAULT_INTERVAL);
    }

    StorePoller(RestStoreClient store, long startTimeNanos, Tracker tracker, Duration interval) {
        polling = new Periodic("store-poller", interval, () -> {
            for (String hex : store.newHashes(startTimeNanos)) {
                tracker.confirmed(MessageHash.parse(hex), System.nanoTime());
            }
        });
    }

    /** The last polling error, if the store could not be read. */
    RuntimeException failure() {
        return polling.lastFailure();
    }

    @Override
    public void close() {
        polling.close();
    }
}
