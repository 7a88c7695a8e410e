package io.wakurelay.archive.rocksdb;

import io.wakurelay.archive.StoreQuery;

/**
 * Which index entries a query wants, in tail order (timestamp, then hash): from {@code lower} to {@code upper},
 * both inclusive, and strictly after {@code cursor} in the query's direction when there is one.
 */
record TailRange(byte[] lower, byte[] upper, byte[] cursor) {

    static TailRange of(StoreQuery query, byte[] cursorTail) {
        long start = query.startTime() == null ? Long.MIN_VALUE : query.startTime();
        long end = query.endTime() == null ? Long.MAX_VALUE : query.endTime();
        return new TailRange(Keys.firstTailAt(start), Keys.lastTailAt(end), cursorTail);
    }

    boolean contains(byte[] tail, boolean ascending) {
        if (Keys.compare(tail, lower) < 0 || Keys.compare(tail, upper) > 0) {
            return false;
        }
        if (cursor == null) {
            return true;
        }
        int c = Keys.compare(tail, cursor);
        return ascending ? c > 0 : c < 0;
    }
}
