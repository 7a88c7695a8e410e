package io.wakurelay.loadgen;

import io.wakurelay.protocol.MessageHash;

/** Polls a remote store for newly archived messages and reports them to a tracker, until closed. */
final class StorePoller implements AutoCloseable {
    static final long INTERVAL_MILLIS = 20;

    private final Thread thread;
    private volatile boolean running = true;
    private volatile RuntimeException failure;

    StorePoller(RemoteStore store, long startTimeNanos, Tracker tracker) {
        thread = new Thread(() -> {
            while (running) {
                try {
                    for (String hex : store.newHashes(startTimeNanos)) {
                        tracker.confirmed(MessageHash.parse(hex), System.nanoTime());
                    }
                } catch (RuntimeException e) {
                    failure = e;
                }
                try {
                    Thread.sleep(INTERVAL_MILLIS);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "store-poller");
        thread.setDaemon(true);
        thread.start();
    }

    /** The last polling error, if the store could not be read. */
    RuntimeException failure() {
        return failure;
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
    }
}
