package io.wakurelay.discovery.discv5;

import io.soabase.recordbuilder.core.RecordBuilder;
import io.wakurelay.discovery.enr.Enr;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * discv5 in the node (docs/discovery.md#discv5): whether it runs, where, from which records, and its search loop
 * ({@link Discv5Discovery}); the service's other bounds are {@link Discv5Config}'s defaults.
 *
 * @param enabled        {@code --discv5-discovery}: off by default, as in nwaku without a network preset
 * @param udpPort        {@code --discv5-udp-port} (nwaku's 9000), shifted by {@code --ports-shift}; written into the
 *                       node's ENR as {@code udp} while discv5 runs
 * @param bootstrap      {@code --discv5-bootstrap-node} records; DNS discovery's finds are added at run time
 * @param lookupInterval the pause between two random lookups (nwaku's search loop waits 5 s)
 * @param enrAutoUpdate  {@code --discv5-enr-auto-update}: the record's ip/udp follow the address the nodes we ping
 *                       see (the majority of their PONGs); off by default, as in nwaku
 * @param tableIpLimit   {@code --discv5-table-ip-limit}: routing table entries of one public IP address (nwaku's 10)
 * @param bucketIpLimit  {@code --discv5-bucket-ip-limit}: the same in one bucket (nwaku's 2)
 * @param bitsPerHop     {@code --discv5-bits-per-hop}: Kademlia's b, how finely the far buckets are divided (nwaku's
 *                       1, one bucket per log distance; 1..5)
 */
@RecordBuilder
public record Discv5DiscoveryConfig(boolean enabled, int udpPort, List<Enr> bootstrap, Duration lookupInterval,
                                    boolean enrAutoUpdate, int tableIpLimit, int bucketIpLimit, int bitsPerHop) {

    public static final Discv5DiscoveryConfig DEFAULTS = new Discv5DiscoveryConfig(false, Discv5Config.DEFAULT_PORT,
            List.of(), Duration.ofSeconds(5), false, RoutingTable.DEFAULT_TABLE_IP_LIMIT,
            RoutingTable.DEFAULT_BUCKET_IP_LIMIT, RoutingTable.DEFAULT_BITS_PER_HOP);

    public Discv5DiscoveryConfig {
        bootstrap = List.copyOf(bootstrap);
        Objects.requireNonNull(lookupInterval, "lookupInterval");
        if (udpPort < 0 || udpPort > 0xffff) {
            throw new IllegalArgumentException("--discv5-udp-port must be 0..65535, was " + udpPort);
        }
        if (tableIpLimit < 1 || bucketIpLimit < 1) {
            throw new IllegalArgumentException("--discv5-table-ip-limit and --discv5-bucket-ip-limit must be at least "
                    + "1, were " + tableIpLimit + " and " + bucketIpLimit);
        }
        if (bitsPerHop < 1 || bitsPerHop > RoutingTable.MAX_BITS_PER_HOP) {
            throw new IllegalArgumentException("--discv5-bits-per-hop must be 1.." + RoutingTable.MAX_BITS_PER_HOP
                    + " (the table holds up to 256 × 16 × 2^(b−1) nodes), was " + bitsPerHop);
        }
        if (lookupInterval.isNegative() || lookupInterval.isZero()) {
            throw new IllegalArgumentException("the discv5 lookup interval must be positive, was " + lookupInterval);
        }
    }

    public Discv5DiscoveryConfigBuilder toBuilder() {
        return Discv5DiscoveryConfigBuilder.builder(this);
    }
}
