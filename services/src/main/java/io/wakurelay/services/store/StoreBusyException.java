package io.wakurelay.services.store;

/**
 * Every query slot is taken ({@link StoreLimits#maxConcurrentQueries()}): nothing was read; retry shortly. REST and
 * Store v3 answer it 429 with its message, the one text of a busy store.
 */
public final class StoreBusyException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    StoreBusyException(String message) {
        super(message, null, false, false);
    }
}
