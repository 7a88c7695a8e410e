package io.wakurelay.node.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.wakurelay.p2p.connection.Connection;
import io.wakurelay.p2p.Host;
import io.wakurelay.p2p.PeerRecord;

import java.util.List;

/**
 * nwaku's {@code waku_connected_peers{direction, protocol}}: connected peers by direction ({@code In}, {@code Out},
 * as nim-libp2p spells them) and by the Waku protocol they offer in identify. Registered at start for every pair, so
 * a dashboard shows 0 rather than no data; counted at each scrape from the host's connections (at most
 * {@code --max-connections} of them).
 */
public final class ConnectedPeers {
    /** The Waku protocols nwaku's peer manager counts peers of. */
    public static final List<String> PROTOCOLS = List.of(
            "/vac/waku/relay/2.0.0", "/vac/waku/store-query/3.0.0", "/vac/waku/lightpush/3.0.0",
            "/vac/waku/filter-subscribe/2.0.0-beta1", "/vac/waku/filter-push/2.0.0-beta1", "/vac/waku/metadata/1.0.0",
            "/vac/waku/peer-exchange/2.0.0-alpha1");

    private ConnectedPeers() {
    }

    public static void bind(MeterRegistry registry, Host host) {
        for (String protocol : PROTOCOLS) {
            for (boolean outbound : new boolean[] {false, true}) {
                Gauge.builder("waku.connected.peers", () -> count(host, protocol, outbound))
                        .tag("direction", outbound ? "Out" : "In").tag("protocol", protocol)
                        .description("connected peers by direction and by the Waku protocol they offer")
                        .register(registry);
            }
        }
    }

    static int count(Host host, String protocol, boolean outbound) {
        int n = 0;
        for (Connection c : host.connections()) {
            if (c.isOutbound() == outbound && c.isOpen()
                    && host.peer(c.remotePeer()).map(PeerRecord::protocols).map(p -> p.contains(protocol)).orElse(false)) {
                n++;
            }
        }
        return n;
    }
}
