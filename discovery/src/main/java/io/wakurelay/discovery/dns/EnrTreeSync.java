package io.wakurelay.discovery.dns;

import io.wakurelay.discovery.dns.EnrTreeException.Kind;
import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.discovery.enr.EnrFormatException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a whole EIP-1459 tree: the root at the URL's domain, verified with the URL's key; then the ENR tree from
 * the root's {@code e=} hash, breadth first, every entry checked to hash to the name it was found under (so the
 * signature of the root covers the whole tree); then the link tree from {@code l=}, whose leaves name further trees
 * ({@code enrtree://<key>@<domain>}), each read the same way and verified with the key its link gives, as
 * go-ethereum's {@code dnsdisc} client follows them. A tree is read once per sync: a link back to a tree on the way to
 * it is a loop ({@code link_loop}), a second link to a tree already read is {@code link_repeated}. A part that fails
 * (a hash mismatch, an entry that does not parse or is of the wrong kind for its tree, an ENR that does not verify, a
 * query that fails, a linked root that does not verify) is left out and counted; the rest is kept. Bounded by
 * {@link EnrTreeLimits} as a whole: records and queries over all trees, the trees read and how many links deep.
 */
public final class EnrTreeSync {
    private static final Logger log = LoggerFactory.getLogger(EnrTreeSync.class);

    private final TxtResolver resolver;
    private final EnrTreeLimits limits;
    private final DnsDiscoveryMetrics metrics;

    /**
     * What one sync found: the URL's root's sequence number, the records of all trees read, one per node, and the
     * linked trees read (verified roots), in the order read.
     */
    public record Tree(long seq, List<Enr> records, List<EnrTreeUrl> linked) {
        public Tree {
            records = List.copyOf(records);
            linked = List.copyOf(linked);
        }

        public Tree(long seq, List<Enr> records) {
            this(seq, records, List.of());
        }
    }

    public EnrTreeSync(TxtResolver resolver, EnrTreeLimits limits, DnsDiscoveryMetrics metrics) {
        this.resolver = resolver;
        this.limits = limits;
        this.metrics = metrics;
    }

    /** A tree to read: where it is, its verified root, and the trees linked on the way to it (itself last). */
    private record Pending(EnrTreeUrl url, TreeEntries.Root root, List<EnrTreeUrl> path) {
    }

    /** What one sync has used and found so far. */
    private static final class State {
        int queries;
        boolean stopped;
        final Map<String, Enr> found = new LinkedHashMap<>();
        final Set<EnrTreeUrl> read = new LinkedHashSet<>();
    }

    /** Reads the tree at {@code url} and the trees it links to; an exception when its own root cannot be read. */
    public Tree sync(EnrTreeUrl url) throws EnrTreeException {
        State state = new State();
        TreeEntries.Root root;
        try {
            root = root(url, state);
        } catch (EnrTreeException e) {
            metrics.error(e.kind());
            throw e;
        }
        state.read.add(url);
        Deque<Pending> trees = new ArrayDeque<>();
        trees.add(new Pending(url, root, List.of(url)));
        while (!trees.isEmpty()) {
            Pending tree = trees.poll();
            walk(tree.url(), tree.root().enrRoot(), false, state);
            for (EnrTreeUrl link : walk(tree.url(), tree.root().linkRoot(), true, state)) {
                follow(tree, link, state).ifPresent(trees::add);
            }
        }
        List<Enr> records = new ArrayList<>(state.found.values());
        List<EnrTreeUrl> linked = new ArrayList<>(state.read);
        linked.remove(url);
        metrics.synced();
        metrics.discovered(records.size());
        return new Tree(root.seq(), records, linked);
    }

    private TreeEntries.Root root(EnrTreeUrl url, State state) throws EnrTreeException {
        state.queries++;
        metrics.query();
        return TreeEntries.verifiedRoot(resolver.txt(url.domain()), url.publicKey());
    }

    /** The linked tree to read next, its root verified with the link's key; empty when it is refused (counted). */
    private java.util.Optional<Pending> follow(Pending from, EnrTreeUrl link, State state) {
        try {
            if (from.path().contains(link)) {
                throw new EnrTreeException(Kind.LINK_LOOP, from.url() + " links to " + link
                        + ", which links to it: not read again");
            }
            if (state.read.contains(link)) {
                throw new EnrTreeException(Kind.LINK_REPEATED, from.url() + " links to " + link
                        + ", already read in this sync");
            }
            if (from.path().size() > limits.maxLinkDepth()) {
                throw new EnrTreeException(Kind.LINK_LIMIT, from.url() + " links to " + link + ", more than "
                        + limits.maxLinkDepth() + " links away from " + from.path().get(0) + ": not followed");
            }
            if (state.read.size() >= limits.maxTrees()) {
                throw new EnrTreeException(Kind.LINK_LIMIT, from.url() + " links to " + link + ", past "
                        + limits.maxTrees() + " trees in one sync: not followed");
            }
            if (exhausted(state)) {
                if (!state.stopped) {
                    state.stopped = true; // counted once a sync
                    throw new EnrTreeException(Kind.LIMIT, link + ": not read, the sync reached " + state.queries
                            + " queries and " + state.found.size() + " records");
                }
                return java.util.Optional.empty();
            }
        } catch (EnrTreeException e) {
            refuse(e);
            return java.util.Optional.empty();
        }
        state.read.add(link); // tried once, whether its root verifies or not
        try {
            TreeEntries.Root root = root(link, state);
            List<EnrTreeUrl> path = new ArrayList<>(from.path());
            path.add(link);
            return java.util.Optional.of(new Pending(link, root, path));
        } catch (EnrTreeException e) {
            refuse(new EnrTreeException(e.kind(), "the tree " + link + " linked from " + from.url() + " is refused: "
                    + e.getMessage()));
            return java.util.Optional.empty();
        }
    }

    private boolean exhausted(State state) {
        return state.queries >= limits.maxQueries() || state.found.size() >= limits.maxRecords();
    }

    /**
     * Reads the entries below {@code start} breadth first: the ENRs of an ENR tree go into the state; the links of a
     * link tree are returned. An entry of the other kind is refused ({@code bad_entry}).
     */
    private List<EnrTreeUrl> walk(EnrTreeUrl url, String start, boolean linkTree, State state) {
        List<EnrTreeUrl> links = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        Deque<String[]> pending = new ArrayDeque<>();
        pending.add(new String[] {start, "1"});
        seen.add(start);
        while (!pending.isEmpty()) {
            if (state.queries >= limits.maxQueries() || !linkTree && state.found.size() >= limits.maxRecords()) {
                if (!state.stopped) { // counted once a sync: the trees linked later stop at the same bound
                    refuse(new EnrTreeException(Kind.LIMIT, url + ": stopped at " + state.queries + " queries and "
                            + state.found.size() + " records; " + pending.size() + " entries not read"));
                }
                state.stopped = true;
                break;
            }
            String[] next = pending.poll();
            String hash = next[0];
            int depth = Integer.parseInt(next[1]);
            state.queries++;
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
                } else if (!linkTree && text.startsWith(TreeEntries.ENR_PREFIX)) {
                    Enr record = enr(url, hash, text);
                    state.found.merge(HexFormat.of().formatHex(record.nodeId()), record,
                            (a, b) -> a.seq() >= b.seq() ? a : b);
                } else if (linkTree && text.startsWith(TreeEntries.LINK_PREFIX)) {
                    EnrTreeUrl link = TreeEntries.link(text);
                    if (!links.contains(link)) {
                        links.add(link);
                    }
                } else {
                    throw new EnrTreeException(Kind.BAD_ENTRY, url + ": the entry at " + hash + " is not a branch or "
                            + (linkTree ? "a link (in the link tree)" : "an ENR (in the ENR tree)") + ": "
                            + TreeEntries.shorten(text));
                }
            } catch (EnrTreeException e) {
                refuse(e);
            }
        }
        return links;
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
        log.atWarn().addKeyValue("reason", e.getMessage()).addKeyValue("kind", String.valueOf(e.kind()))
                .log("DNS discovery: a tree refused");
    }
}
