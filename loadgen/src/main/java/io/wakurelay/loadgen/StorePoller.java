package io.wakurelay.loadgen;

import io.wakurelay.protocol.MessageHash;

import java.time.Duration;

/** Polls a remote store for newly archived messages and reports them to a tracker, until closed. */
final class StorePoller implements AutoCloseable {
    static final long INTERVAL_MILLIS = 20;

    private final Periodic polling;

    StorePoller(RemoteStore store, long startTimeNanos, Tracker tracker) {
        polling = new Periodic("store-poller", Duration.ofMillis(INTERVAL_MILLIS), () -> {
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
