package io.wakurelay.discovery.dns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.discovery.enr.EnrBuilder;
import io.wakurelay.p2p.multiaddr.Multiaddr;
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

/** Trees served by a real dnsmasq on 127.0.0.1, read through Netty's DNS resolver. */
@Tag("process")
class EnrTreeSyncTest {
    private static final String DOMAIN = "nodes.wakurelay.test";

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final DnsDiscoveryMetrics metrics = new DnsDiscoveryMetrics(registry);
    private final EnrTreeBuilder builder = new EnrTreeBuilder(PrivateKey.generateSecp256k1().raw(), DOMAIN, 13);
    private Dnsmasq dns;
    private DnsTxtResolver resolver;

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

    static List<Enr> records(int count) {
        List<Enr> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            out.add(EnrBuilder.of(PrivateKey.generateSecp256k1())
                    .announce(List.of(Multiaddr.parse("/ip4/127.0.0.1/tcp/" + (20000 + i)))).build(1));
        }
        return out;
    }

    private EnrTreeSync serve(Map<String, String> txt, EnrTreeLimits limits) throws Exception {
        dns = Dnsmasq.serve("127.0.0.1", txt);
        resolver = new DnsTxtResolver(List.of(dns.address()), Duration.ofSeconds(2));
        return new EnrTreeSync(resolver, limits, metrics);
    }

    private static Set<String> texts(List<Enr> records) {
        return records.stream().map(Enr::text).collect(Collectors.toSet());
    }

    private double errors(EnrTreeException.Kind kind) {
        return registry.get("waku.dnsdisc.errors").tag("type", kind.label()).counter().count();
    }

    @Test
    void findsExactlyTheRecordsOfAThreeLevelTree() throws Exception {
        List<Enr> records = records(30); // 30 leaves, 3 branches of at most 13, one root branch
        EnrTreeSync sync = serve(builder.build(records, 7), EnrTreeLimits.DEFAULTS);
        EnrTreeSync.Tree tree = sync.sync(builder.url());
        assertEquals(7, tree.seq());
        assertEquals(texts(records), texts(tree.records()));
        assertEquals(30, tree.records().size());
        assertEquals(30.0, registry.get("waku.dnsdisc.discovered").counter().count());
        // the root, the root branch, 3 branches, 30 leaves, and the link tree (an empty branch)
        assertEquals(1 + 1 + 3 + 30 + 1, registry.get("waku.dnsdisc.queries").counter().count());
        for (EnrTreeException.Kind kind : EnrTreeException.Kind.values()) {
            assertEquals(0.0, errors(kind), kind.label());
        }
    }

    @Test
    void rejectsARecordReplacedUnderItsNameAndKeepsTheRest() throws Exception {
        List<Enr> records = records(5);
        Map<String, String> txt = new LinkedHashMap<>(builder.build(records, 1));
        String name = txt.entrySet().stream().filter(e -> e.getValue().equals(records.get(2).text())).findFirst()
                .orElseThrow().getKey();
        Enr intruder = records(1).get(0);
        txt.put(name, intruder.text()); // a valid, signed ENR, but not the one the signed tree names
        EnrTreeSync sync = serve(txt, EnrTreeLimits.DEFAULTS);
        List<Enr> found = sync.sync(builder.url()).records();
        List<Enr> expected = new ArrayList<>(records);
        expected.remove(2);
        assertEquals(texts(expected), texts(found));
        assertEquals(1.0, errors(EnrTreeException.Kind.HASH_MISMATCH));
    }

    @Test
    void rejectsABranchReplacedUnderItsNameWithEverythingBelowIt() throws Exception {
        List<Enr> records = records(20); // branches of 13 and 7 leaves
        Map<String, String> txt = new LinkedHashMap<>(builder.build(records, 1));
        String branchName = txt.entrySet().stream()
                .filter(e -> e.getValue().startsWith(TreeEntries.BRANCH_PREFIX) && e.getValue().split(",").length == 7)
                .findFirst().orElseThrow().getKey();
        String branch = txt.get(branchName);
        // a branch that drops one child: the hash of the text no longer matches its name
        txt.put(branchName, branch.substring(0, branch.lastIndexOf(',')));
        EnrTreeSync sync = serve(txt, EnrTreeLimits.DEFAULTS);
        assertEquals(texts(records.subList(0, 13)), texts(sync.sync(builder.url()).records()));
        assertEquals(1.0, errors(EnrTreeException.Kind.HASH_MISMATCH));
    }

    @Test
    void refusesATreeWhoseRootAnotherKeySigned() throws Exception {
        List<Enr> records = records(3);
        Map<String, String> txt = new LinkedHashMap<>(builder.build(records, 1));
        EnrTreeBuilder forger = new EnrTreeBuilder(PrivateKey.generateSecp256k1().raw(), DOMAIN, 13);
        txt.putAll(forger.build(records, 2)); // the same records, the root signed by another key
        EnrTreeSync sync = serve(txt, EnrTreeLimits.DEFAULTS);
        EnrTreeException e = assertThrows(EnrTreeException.class, () -> sync.sync(builder.url()));
        assertEquals(EnrTreeException.Kind.BAD_SIGNATURE, e.kind());
        assertEquals(1.0, errors(EnrTreeException.Kind.BAD_SIGNATURE));
        assertEquals(texts(records), texts(sync.sync(forger.url()).records())); // the forger's own URL reads it
    }

    @Test
    void countsMissingEntriesAndStopsAtTheBounds() throws Exception {
        List<Enr> records = records(30);
        Map<String, String> txt = new LinkedHashMap<>(builder.build(records, 1));
        String missing = txt.entrySet().stream().filter(e -> e.getValue().equals(records.get(0).text()))
                .findFirst().orElseThrow().getKey();
        txt.remove(missing);
        EnrTreeSync sync = serve(txt, EnrTreeLimits.DEFAULTS);
        assertEquals(texts(records.subList(1, 30)), texts(sync.sync(builder.url()).records()));
        assertEquals(1.0, errors(EnrTreeException.Kind.QUERY_FAILURE));

        EnrTreeSync few = new EnrTreeSync(resolver, new EnrTreeLimits(10, 8, 1200), metrics);
        assertEquals(10, few.sync(builder.url()).records().size());
        EnrTreeSync shallow = new EnrTreeSync(resolver, new EnrTreeLimits(1000, 2, 1200), metrics);
        assertEquals(0, shallow.sync(builder.url()).records().size()); // the leaves are at level 3
        EnrTreeSync cheap = new EnrTreeSync(resolver, new EnrTreeLimits(1000, 8, 7), metrics);
        // root, root branch, 3 branches, the missing leaf, one more leaf
        assertEquals(1, cheap.sync(builder.url()).records().size());
        // one for the records, one for each of the 3 branches too deep, one for the queries
        assertEquals(5.0, errors(EnrTreeException.Kind.LIMIT));
    }

    @Test
    void failsWhenTheNameServerDoesNotAnswer() throws Exception {
        EnrTreeSync sync = serve(Map.of(), EnrTreeLimits.DEFAULTS);
        assertEquals(EnrTreeException.Kind.QUERY_FAILURE,
                assertThrows(EnrTreeException.class, () -> sync.sync(builder.url())).kind());
        dns.close();
        dns = null;
        long start = System.nanoTime();
        assertEquals(EnrTreeException.Kind.QUERY_FAILURE,
                assertThrows(EnrTreeException.class, () -> sync.sync(builder.url())).kind());
        assertEquals(true, System.nanoTime() - start < Duration.ofSeconds(5).toNanos());
    }
}
