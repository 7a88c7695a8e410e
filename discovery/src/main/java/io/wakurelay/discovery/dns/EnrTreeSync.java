package io.wakurelay.discovery.dns;

import io.wakurelay.discovery.dns.EnrTreeException.Kind;
import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.discovery.enr.EnrFormatException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a whole EIP-1459 tree: the root at the URL's domain, verified with the URL's key; then the ENR tree from
 * the root's {@code e=} hash, breadth first, every entry checked to hash to the name it was found under (so the
 * signature of the root covers the whole tree). A part that fails (a hash mismatch, an entry that does not parse, an
 * ENR that does not verify, a query that fails) is left out and counted; the rest is kept. The link tree
 * ({@code l=}, other trees) is not followed, as js-waku does not follow it. Bounded by {@link EnrTreeLimits}.
 */
public final class EnrTreeSync {
    private static final Logger log = LoggerFactory.getLogger(EnrTreeSync.class);

    private final TxtResolver resolver;
    private final EnrTreeLimits limits;
    private final DnsDiscoveryMetrics metrics;

    /** What one sync found: the root's sequence number and the tree's records, one per node. */
    public record Tree(long seq, List<Enr> records) {
        public Tree {
            records = List.copyOf(records);
        }
    }

    public EnrTreeSync(TxtResolver resolver, EnrTreeLimits limits, DnsDiscoveryMetrics metrics) {
        this.resolver = resolver;
        this.limits = limits;
        this.metrics = metrics;
    }

    /** Reads the tree at {@code url}; an {@link EnrTreeException} when its root cannot be read or verified. */
    public Tree sync(EnrTreeUrl url) throws EnrTreeException {
        TreeEntries.Root root;
        try {
            metrics.query();
            root = TreeEntries.verifiedRoot(resolver.txt(url.domain()), url.publicKey());
        } catch (EnrTreeException e) {
            metrics.error(e.kind());
            throw e;
        }
        int queries = 1;
        Map<String, Enr> found = new LinkedHashMap<>();
        Set<String> seen = new HashSet<>();
        Deque<String[]> pending = new ArrayDeque<>();
        pending.add(new String[] {root.enrRoot(), "1"});
        seen.add(root.enrRoot());
        while (!pending.isEmpty()) {
            if (queries >= limits.maxQueries() || found.size() >= limits.maxRecords()) {
                refuse(new EnrTreeException(Kind.LIMIT, url + ": stopped at " + queries + " queries and "
                        + found.size() + " records; " + pending.size() + " entries not read"));
                break;
            }
            String[] next = pending.poll();
            String hash = next[0];
            int depth = Integer.parseInt(next[1]);
            queries++;
            try {
                metrics.query();
                String text = resolver.txt(url.nameOf(hash));
                if (!TreeEntries.hash(text).equalsIgnoreCase(hash)) {
                    throw new EnrTreeException(Kind.HASH_MISMATCH, url + ": the entry at " + hash
                            + " does not hash to its name: " + TreeEntries.shorten(text));
                }
                if (text.startsWith(TreeEntries.BRANCH_PREFIX)) {
                    List<String> children = TreeEntries.branch(text);
                    if (depth >= limits.maxDepth() && !children.isEmpty()) {
                        throw new EnrTreeException(Kind.LIMIT, url + ": a branch at depth " + depth
                                + " is deeper than " + limits.maxDepth() + " levels");
                    }
                    for (String child : children) {
                        if (seen.add(child)) {
                            pending.add(new String[] {child, Integer.toString(depth + 1)});
                        }
                    }
                } else if (text.startsWith(TreeEntries.ENR_PREFIX)) {
                    Enr record = enr(url, hash, text);
                    found.merge(java.util.HexFormat.of().formatHex(record.nodeId()), record,
                            (a, b) -> a.seq() >= b.seq() ? a : b);
                } else {
                    throw new EnrTreeException(Kind.BAD_ENTRY, url + ": the entry at " + hash
                            + " is neither a branch nor an ENR: " + TreeEntries.shorten(text));
                }
            } catch (EnrTreeException e) {
                refuse(e);
            }
        }
        List<Enr> records = new ArrayList<>(found.values());
        metrics.synced();
        metrics.discovered(records.size());
        return new Tree(root.seq(), records);
    }

    private static Enr enr(EnrTreeUrl url, String hash, String text) throws EnrTreeException {
        try {
            return Enr.parse(text);
        } catch (EnrFormatException e) {
            throw new EnrTreeException(Kind.BAD_ENR, url + ": the ENR at " + hash + " is refused: " + e.getMessage());
        }
    }

    private void refuse(EnrTreeException e) {
        metrics.error(e.kind());
        log.warn("DNS discovery: {}", e.getMessage());
    }
}
