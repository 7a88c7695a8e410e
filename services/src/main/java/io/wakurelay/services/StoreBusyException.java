package io.wakurelay.services;

/** Every query slot is taken ({@link StoreLimits#maxConcurrentQueries()}): nothing was read; retry shortly. */
public final class StoreBusyException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    StoreBusyException(String message) {
        super(message, null, false, false);
    }
}
