package io.wakurelay.archive;

/** A store query the archive refuses; the message says what is wrong, for a 400 answer. */
public sealed class InvalidQueryException extends IllegalArgumentException permits UnknownCursorException {
    public InvalidQueryException(String message) {
        super(message);
    }
}
