package io.wakurelay.discovery.dns;

/**
 * Bounds of one sync of a tree: a hostile or broken tree costs at most {@code maxQueries} TXT queries and yields at
 * most {@code maxRecords} records, however it is built (cycles, endless branches, huge fan-out).
 *
 * @param maxRecords the most ENRs taken from one tree
 * @param maxDepth   the most levels below the root followed (the ENR tree's root branch is level 1)
 * @param maxQueries the most TXT queries of one sync, the root's included
 */
public record EnrTreeLimits(int maxRecords, int maxDepth, int maxQueries) {
    /** 1,000 records (a branch holds up to 13 hashes: 4 levels already hold 28,561), 8 levels, 1,200 queries. */
    public static final EnrTreeLimits DEFAULTS = new EnrTreeLimits(1000, 8, 1200);

    public EnrTreeLimits {
        if (maxRecords < 1 || maxDepth < 1 || maxQueries < 2) {
            throw new IllegalArgumentException("tree limits must be positive (and at least 2 queries): " + maxRecords
                    + " records, " + maxDepth + " levels, " + maxQueries + " queries");
        }
    }
}
