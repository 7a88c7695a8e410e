package io.wakurelay.archive;

/** A store query the archive refuses; the message says what is wrong, for a 400 answer. */
public final class InvalidQueryException extends IllegalArgumentException {
    public InvalidQueryException(String message) {
        super(message);
    }
}
