package io.wakurelay.services.store;

/**
 * What one node lets Store queries take, whoever asks (REST's {@code /store/v3/messages}, Store v3 over libp2p): the
 * queries running at once, and the bytes of one page. One set of limits, one flag each ({@code --store-max-queries},
 * {@code --store-max-page-bytes}).
 *
 * @param maxConcurrentQueries queries (open pages) at once; one more is refused at once with 429, as nwaku refuses a
 *                             query past its store's limit (REST adds Retry-After)
 * @param maxPageBytes         stored bytes of the messages of one page with data; a page that would pass it ends
 *                             early with a cursor (REST: its first message is always in; Store v3 over libp2p: the
 *                             encoded response stays within it, so the 4 MiB default is what js-waku reads at most)
 */
public record StoreLimits(int maxConcurrentQueries, long maxPageBytes) {
    public static final StoreLimits DEFAULTS = new StoreLimits(16, 4L << 20);
    /** The smallest page budget: a page must hold at least one message of the network's largest size (150 KiB). */
    public static final int MIN_PAGE_BYTES = 256 * 1024;

    public StoreLimits {
        if (maxConcurrentQueries < 1) {
            throw new IllegalArgumentException("at least one store query must be allowed at a time, was " + maxConcurrentQueries);
        }
        if (maxPageBytes < MIN_PAGE_BYTES) {
            throw new IllegalArgumentException("a store page's byte budget must be at least 256 KiB (one message of the "
                    + "largest size), was " + maxPageBytes);
        }
    }
}
