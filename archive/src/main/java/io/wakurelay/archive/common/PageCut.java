package io.wakurelay.archive.common;

import io.wakurelay.archive.StoreQuery;
import io.wakurelay.protocol.MessageHash;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;

/**
 * Where a page ends, as every backend decides it: of the index entries found for a query (in the query's direction,
 * one more than the page size: the extra one says whether a next page exists), the page takes up to
 * {@code pageSize}; with data, it ends early once the next message would take its stored bytes past the byte budget
 * (its first message is always in). The cursor is the hash of the last entry the page passed, null when nothing
 * follows; the page's entries are then put in chronological order, as nwaku returns every page, also a backward one.
 *
 * @param hits      the page's entries, oldest first
 * @param cursor    the next page's cursor, or null
 * @param dataBytes the stored bytes of the page's messages when it includes data, else 0
 * @param <H>       the backend's index entry
 */
public record PageCut<H>(List<H> hits, MessageHash cursor, long dataBytes) {

    /** The stored size of an entry's message, read before the message is; {@link #MISSING} for an entry without one. */
    @FunctionalInterface
    public interface Sizes<H, E extends Exception> {
        long of(H hit) throws E;
    }

    /** The size of an index entry whose message is not stored (a corrupt store): the entry is passed over. */
    public static final long MISSING = -1;

    /**
     * @param found  the entries found, in the query's direction, at most {@code pageSize + 1}
     * @param hashes the message hash of an entry
     * @param sizes  the stored size of an entry's message; asked only when the query includes data
     */
    public static <H, E extends Exception> PageCut<H> of(List<H> found, StoreQuery query, long maxPageBytes,
                                                         Function<H, MessageHash> hashes, Sizes<H, E> sizes) throws E {
        int wanted = Math.min(found.size(), query.pageSize());
        List<H> page = new ArrayList<>(wanted);
        long bytes = 0;
        boolean budgetEnded = false;
        H last = null;
        for (int i = 0; i < wanted; i++) {
            H hit = found.get(i);
            if (query.includeData()) {
                long size = sizes.of(hit);
                if (size == MISSING) {
                    last = hit;
                    continue;
                }
                if (!page.isEmpty() && bytes + size > maxPageBytes) {
                    budgetEnded = true;
                    break;
                }
                bytes += size;
            }
            page.add(hit);
            last = hit;
        }
        boolean more = budgetEnded || found.size() > query.pageSize();
        if (!query.ascending()) {
            // nwaku returns every page in chronological order; the cursor still marks where the scan stopped
            Collections.reverse(page);
        }
        return new PageCut<>(page, more ? hashes.apply(last) : null, bytes);
    }
}
