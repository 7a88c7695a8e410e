package io.wakurelay.archive;

import io.wakurelay.protocol.MessageHash;

/**
 * A query whose cursor is not a stored message (never stored, or removed by retention). Its own type because nwaku's
 * REST API answers it 500 {@code cursor not found} (its driver's error) rather than 400 as other refused queries.
 */
public final class UnknownCursorException extends InvalidQueryException {
    public UnknownCursorException(MessageHash cursor) {
        super("cursor " + cursor.toHex() + " is not a stored message (unknown, or removed by retention)");
    }
}
