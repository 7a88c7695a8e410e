package io.wakurelay.node.store;

/**
 * What one node lets Store queries take, whoever asks (REST today, Store v3 over libp2p next): the queries running
 * at once, and the stored bytes of one page.
 *
 * @param maxConcurrentQueries queries (open pages) at once; one more is refused (REST: 503 with Retry-After)
 * @param maxPageBytes         stored bytes of the messages of one page with data; a page that would pass it ends
 *                             early with a cursor (its first message is always in)
 */
public record StoreLimits(int maxConcurrentQueries, long maxPageBytes) {
    public static final StoreLimits DEFAULTS = new StoreLimits(16, 4L << 20);

    public StoreLimits {
        if (maxConcurrentQueries < 1) {
            throw new IllegalArgumentException("at least one store query must be allowed at a time, was " + maxConcurrentQueries);
        }
        if (maxPageBytes < 1024) {
            throw new IllegalArgumentException("a store page's byte budget must be at least 1 KiB, was " + maxPageBytes);
        }
    }
}
