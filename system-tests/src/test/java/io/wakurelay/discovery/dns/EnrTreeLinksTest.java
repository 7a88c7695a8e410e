package io.wakurelay.discovery.dns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.p2p.crypto.PrivateKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Trees that link to further trees (EIP-1459's link tree, {@code l=}), served by a real dnsmasq on 127.0.0.1: each
 * linked tree is verified with the key its link names, read once per sync, and bounded.
 */
@Tag("process")
class EnrTreeLinksTest {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final DnsDiscoveryMetrics metrics = new DnsDiscoveryMetrics(registry);
    private final EnrTreeBuilder a = tree("a.nodes.wakurelay.test");
    private final EnrTreeBuilder b = tree("b.nodes.wakurelay.test");
    private final EnrTreeBuilder c = tree("c.nodes.wakurelay.test");
    private final EnrTreeBuilder d = tree("d.nodes.wakurelay.test");
    private final List<Enr> ofA = EnrTreeSyncTest.records(3);
    private final List<Enr> ofB = EnrTreeSyncTest.records(4);
    private final List<Enr> ofC = EnrTreeSyncTest.records(2);
    private final List<Enr> ofD = EnrTreeSyncTest.records(1);
    private final Map<String, String> txt = new LinkedHashMap<>();
    private Dnsmasq dns;
    private DnsTxtResolver resolver;

    private static EnrTreeBuilder tree(String domain) {
        return new EnrTreeBuilder(PrivateKey.generateSecp256k1().raw(), domain, 13);
    }

    @BeforeEach
    void dnsmasqIsInstalled() {
        assumeTrue(Dnsmasq.installed(), "no /usr/sbin/dnsmasq (apt-get install dnsmasq-base)");
    }

    @AfterEach
    void stop() throws Exception {
        if (resolver != null) {
            resolver.close();
        }
        if (dns != null) {
            dns.close();
        }
    }

    private EnrTreeSync serve(EnrTreeLimits limits) throws Exception {
        if (dns == null) {
            dns = Dnsmasq.serve("127.0.0.1", txt);
            resolver = new DnsTxtResolver(List.of(dns.address()), Duration.ofSeconds(2));
        }
        return new EnrTreeSync(resolver, limits, metrics);
    }

    @SafeVarargs
    private static Set<String> texts(List<Enr>... lists) {
        Set<String> out = new java.util.HashSet<>();
        for (List<Enr> list : lists) {
            list.stream().map(Enr::text).forEach(out::add);
        }
        return out;
    }

    private static Set<String> texts(EnrTreeSync.Tree tree) {
        return tree.records().stream().map(Enr::text).collect(Collectors.toSet());
    }

    private double errors(EnrTreeException.Kind kind) {
        return registry.get("waku.dnsdisc.errors").tag("type", kind.label()).counter().count();
    }

    private double queries() {
        return registry.get("waku.dnsdisc.queries").counter().count();
    }

    private void assertNoErrorsBut(EnrTreeException.Kind... expected) {
        Set<EnrTreeException.Kind> allowed = Set.of(expected);
        for (EnrTreeException.Kind kind : EnrTreeException.Kind.values()) {
            if (!allowed.contains(kind)) {
                assertEquals(0.0, errors(kind), kind.label());
            }
        }
    }

    @Test
    void findsTheRecordsOfTreesLinkedTwoLevelsDeep() throws Exception {
        txt.putAll(a.build(ofA, List.of(b.url()), 1));
        txt.putAll(b.build(ofB, List.of(c.url()), 1));
        txt.putAll(c.build(ofC, 1));
        EnrTreeSync.Tree tree = serve(EnrTreeLimits.DEFAULTS).sync(a.url());
        assertEquals(texts(ofA, ofB, ofC), texts(tree));
        assertEquals(List.of(b.url(), c.url()), tree.linked());
        // each tree: root, ENR root branch, its leaves, link root branch (and A's and B's link leaf)
        assertEquals((1 + 1 + 3 + 1 + 1) + (1 + 1 + 4 + 1 + 1) + (1 + 1 + 2 + 1), queries());
        assertNoErrorsBut();
        // without following links (one tree), only A's own records
        EnrTreeSync.Tree alone = serve(new EnrTreeLimits(1000, 8, 1200, 1, 4)).sync(a.url());
        assertEquals(texts(ofA), texts(alone));
        assertEquals(1.0, errors(EnrTreeException.Kind.LINK_LIMIT));
    }

    @Test
    void readsEachTreeOnceWhenLinksLoopOrMeet() throws Exception {
        // A -> B -> A (a loop); A -> C and B -> C (C linked twice)
        txt.putAll(a.build(ofA, List.of(b.url(), c.url()), 1));
        txt.putAll(b.build(ofB, List.of(a.url(), c.url()), 1));
        txt.putAll(c.build(ofC, List.of(c.url()), 1)); // C links itself
        EnrTreeSync.Tree tree = serve(EnrTreeLimits.DEFAULTS).sync(a.url());
        assertEquals(texts(ofA, ofB, ofC), texts(tree));
        assertEquals(List.of(b.url(), c.url()), tree.linked());
        assertEquals(2.0, errors(EnrTreeException.Kind.LINK_LOOP)); // B -> A, C -> C
        assertEquals(1.0, errors(EnrTreeException.Kind.LINK_REPEATED)); // B -> C, read from A already
        assertNoErrorsBut(EnrTreeException.Kind.LINK_LOOP, EnrTreeException.Kind.LINK_REPEATED);
        // three roots, each queried once
        assertEquals((1 + 1 + 3 + 1 + 2) + (1 + 1 + 4 + 1 + 2) + (1 + 1 + 2 + 1 + 1), queries());
    }

    @Test
    void refusesALinkedTreeNotSignedByTheLinksKeyAndKeepsTheRest() throws Exception {
        EnrTreeBuilder forger = new EnrTreeBuilder(PrivateKey.generateSecp256k1().raw(), b.url().domain(), 13);
        txt.putAll(a.build(ofA, List.of(b.url(), c.url()), 1));
        txt.putAll(forger.build(ofB, 1)); // B's domain serves a root that B's key did not sign
        txt.putAll(c.build(ofC, 1));
        EnrTreeSync.Tree tree = serve(EnrTreeLimits.DEFAULTS).sync(a.url());
        assertEquals(texts(ofA, ofC), texts(tree));
        assertEquals(1.0, errors(EnrTreeException.Kind.BAD_SIGNATURE));
        assertNoErrorsBut(EnrTreeException.Kind.BAD_SIGNATURE);
        // the forged tree's entries were never asked for: only its root
        assertEquals((1 + 1 + 3 + 1 + 2) + 1 + (1 + 1 + 2 + 1), queries());
    }

    @Test
    void stopsAtTheBoundsOfLinksAndRecords() throws Exception {
        // a chain A -> B -> C -> D
        txt.putAll(a.build(ofA, List.of(b.url()), 1));
        txt.putAll(b.build(ofB, List.of(c.url()), 1));
        txt.putAll(c.build(ofC, List.of(d.url()), 1));
        txt.putAll(d.build(ofD, 1));
        EnrTreeSync.Tree twoDeep = serve(new EnrTreeLimits(1000, 8, 1200, 16, 2)).sync(a.url());
        assertEquals(texts(ofA, ofB, ofC), texts(twoDeep));
        assertEquals(1.0, errors(EnrTreeException.Kind.LINK_LIMIT)); // C -> D, 3 links away
        EnrTreeSync.Tree twoTrees = serve(new EnrTreeLimits(1000, 8, 1200, 2, 4)).sync(a.url());
        assertEquals(texts(ofA, ofB), texts(twoTrees));
        assertEquals(2.0, errors(EnrTreeException.Kind.LINK_LIMIT)); // B -> C, a third tree
        EnrTreeSync.Tree all = serve(EnrTreeLimits.DEFAULTS).sync(a.url());
        assertEquals(texts(ofA, ofB, ofC, ofD), texts(all));
        // records are bounded over all trees together: 5 of A's 3 and B's 4
        EnrTreeSync.Tree five = serve(new EnrTreeLimits(5, 8, 1200)).sync(a.url());
        assertEquals(5, five.records().size());
        assertEquals(1.0, errors(EnrTreeException.Kind.LIMIT));
        assertNoErrorsBut(EnrTreeException.Kind.LINK_LIMIT, EnrTreeException.Kind.LIMIT);
    }

    @Test
    void refusesEntriesOfTheWrongKindForTheirTree() throws Exception {
        // an ENR in the link tree and a link in the ENR tree
        List<String> enrLeaves = new ArrayList<>(ofA.stream().map(Enr::text).toList());
        enrLeaves.add(c.url().toString());
        txt.putAll(a.buildLeaves(enrLeaves, List.of(b.url().toString(), ofC.get(0).text()), 1));
        txt.putAll(b.build(ofB, 1));
        txt.putAll(c.build(ofC, 1));
        EnrTreeSync.Tree tree = serve(EnrTreeLimits.DEFAULTS).sync(a.url());
        assertEquals(texts(ofA, ofB), texts(tree));
        assertEquals(List.of(b.url()), tree.linked());
        assertEquals(2.0, errors(EnrTreeException.Kind.BAD_ENTRY));
        assertNoErrorsBut(EnrTreeException.Kind.BAD_ENTRY);
    }
}
