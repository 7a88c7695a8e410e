package io.wakurelay.discovery.dns;

/**
 * Bounds of one sync: a hostile or broken tree costs at most {@code maxQueries} TXT queries and yields at most
 * {@code maxRecords} records, however it is built (cycles, endless branches, huge fan-out, links to further trees).
 * The record and query bounds hold for the whole sync: the tree named by the URL and every tree it links to.
 *
 * @param maxRecords   the most ENRs taken in one sync (all linked trees together)
 * @param maxDepth     the most levels below a root followed (the root branch of a tree is level 1)
 * @param maxQueries   the most TXT queries of one sync, every root's included
 * @param maxTrees     the most trees read in one sync, the URL's own included (1: links are not followed)
 * @param maxLinkDepth the most links followed one after the other from the URL's tree (a tree the URL's tree links
 *                     to is at link depth 1)
 */
public record EnrTreeLimits(int maxRecords, int maxDepth, int maxQueries, int maxTrees, int maxLinkDepth) {
    /** The bounds of links when only the three tree bounds are given: 16 trees, 4 links deep. */
    public static final int DEFAULT_MAX_TREES = 16;
    public static final int DEFAULT_MAX_LINK_DEPTH = 4;

    /**
     * 1,000 records (a branch holds up to 13 hashes: 4 levels already hold 28,561), 8 levels, 1,200 queries, 16
     * trees, 4 links deep.
     */
    public static final EnrTreeLimits DEFAULTS = new EnrTreeLimits(1000, 8, 1200);

    public EnrTreeLimits {
        if (maxRecords < 1 || maxDepth < 1 || maxQueries < 2 || maxTrees < 1 || maxLinkDepth < 0) {
            throw new IllegalArgumentException("tree limits must be positive (and at least 2 queries): " + maxRecords
                    + " records, " + maxDepth + " levels, " + maxQueries + " queries, " + maxTrees + " trees, "
                    + maxLinkDepth + " links deep");
        }
    }

    public EnrTreeLimits(int maxRecords, int maxDepth, int maxQueries) {
        this(maxRecords, maxDepth, maxQueries, DEFAULT_MAX_TREES, DEFAULT_MAX_LINK_DEPTH);
    }
}
