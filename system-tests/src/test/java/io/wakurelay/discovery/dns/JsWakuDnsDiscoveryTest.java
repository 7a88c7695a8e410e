package io.wakurelay.discovery.dns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.discovery.enr.EnrBuilder;
import io.wakurelay.discovery.enr.WakuCapabilities;
import io.wakurelay.discovery.enr.WakuCapabilities.Capability;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.testkit.JsPeer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * An independent reader of the same tree: js-waku's DnsNodeDiscovery (@waku/discovery 0.0.13,
 * interop/discovery/enr-tool.mjs {@code dns}) asks the same dnsmasq and finds the same peers as we do.
 */
@Tag("process")
class JsWakuDnsDiscoveryTest {

    @Test
    void jsWakuAndWeFindTheSamePeersInATreeWeSigned() throws Exception {
        assumeTrue(Dnsmasq.installed(), "no /usr/sbin/dnsmasq (apt-get install dnsmasq-base)");
        List<Enr> records = new ArrayList<>();
        for (int i = 0; i < 6; i++) { // js-waku keeps only records with waku2
            records.add(EnrBuilder.of(PrivateKey.generateSecp256k1())
                    .announce(List.of(Multiaddr.parse("/ip4/127.0.0.1/tcp/" + (30000 + i))))
                    .capabilities(WakuCapabilities.of(Set.of(Capability.RELAY))).build(1));
        }
        // one branch over the leaves: js-waku's walk then reaches every leaf in one call (it never revisits one)
        EnrTreeBuilder builder = new EnrTreeBuilder(PrivateKey.generateSecp256k1().raw(), "tree.wakurelay.test", 13);
        Set<String> expected = records.stream().map(r -> r.peerId().toString()).collect(Collectors.toSet());
        try (Dnsmasq dns = Dnsmasq.serve("127.0.0.1", builder.build(records, 3));
             DnsTxtResolver resolver = new DnsTxtResolver(List.of(dns.address()), Duration.ofSeconds(2));
             DnsDiscoveryMetrics metrics = new DnsDiscoveryMetrics(new SimpleMeterRegistry());
             JsPeer js = JsPeer.start(JsPeer.Script.ENR_TOOL)) {
            Set<String> ours = new EnrTreeSync(resolver, EnrTreeLimits.DEFAULTS, metrics).sync(builder.url())
                    .records().stream().map(r -> r.peerId().toString()).collect(Collectors.toSet());
            assertEquals(expected, ours);

            JsonNode found = js.call("dns", Map.of("url", builder.url().toString(),
                    "nameServer", "127.0.0.1:" + dns.address().getPort(), "rounds", 2), Duration.ofSeconds(30));
            Set<String> theirs = new HashSet<>();
            for (JsonNode peer : found.get("peers")) {
                theirs.add(peer.get("peerId").asText());
                assertEquals("127.0.0.1", peer.get("ip").asText());
            }
            assertEquals(expected, theirs);
        }
    }
}
