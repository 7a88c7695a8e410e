package io.wakurelay.node.config;

import io.wakurelay.discovery.DiscoveryConfig;
import io.wakurelay.discovery.enr.Enr;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntUnaryOperator;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/** discv5's options (nwaku's names), mixed into {@link NodeOptions}. */
public final class Discv5Options {

    @Option(names = "--discv5-discovery", paramLabel = "BOOL", arity = "0..1", fallbackValue = "true",
            showDefaultValue = CommandLine.Help.Visibility.ALWAYS,
            description = "run Node Discovery v5 over UDP: find peers of this cluster and shards by random walks "
                    + "from the bootstrap nodes and dial them (within --max-connections)")
    boolean discv5Discovery;

    @Option(names = "--discv5-udp-port", paramLabel = "PORT", showDefaultValue = CommandLine.Help.Visibility.ALWAYS,
            description = "UDP port of discv5 (shifted by --ports-shift; written into the ENR as udp)")
    int discv5UdpPort;

    @Option(names = "--discv5-bootstrap-node", paramLabel = "ENR", split = ",",
            description = "discv5 node to start from (enr:…; repeatable); DNS discovery's peers are used as well")
    List<String> discv5BootstrapNodes = new ArrayList<>();

    @Option(names = "--discv5-enr-auto-update", paramLabel = "BOOL", arity = "0..1", fallbackValue = "true",
            showDefaultValue = CommandLine.Help.Visibility.ALWAYS,
            description = "update the ENR's ip and udp to the address the nodes discv5 pings see this node at (the "
                    + "majority of 10 or more of their PONGs), with the next sequence number")
    boolean discv5EnrAutoUpdate;

    @Option(names = "--discv5-table-ip-limit", paramLabel = "N", showDefaultValue = CommandLine.Help.Visibility.ALWAYS,
            description = "the most discv5 routing table entries with the same public IP address")
    int discv5TableIpLimit;

    @Option(names = "--discv5-bucket-ip-limit", paramLabel = "N", showDefaultValue = CommandLine.Help.Visibility.ALWAYS,
            description = "the most entries of one discv5 routing table bucket with the same public IP address")
    int discv5BucketIpLimit;

    @Option(names = "--discv5-bits-per-hop", paramLabel = "B", showDefaultValue = CommandLine.Help.Visibility.ALWAYS,
            description = "Kademlia's b (1..5): the far buckets are divided by up to b-1 more bits, keeping more "
                    + "distant nodes for lookups of fewer hops; 1: one bucket per distance")
    int discv5BitsPerHop;

    /** {@code discovery} with the discv5 these options give; {@code shift} applies --ports-shift. */
    DiscoveryConfig discovery(DiscoveryConfig discovery, IntUnaryOperator shift) {
        List<Enr> bootstrap = new ArrayList<>();
        for (String s : discv5BootstrapNodes) {
            bootstrap.add(NodeOptions.option("--discv5-bootstrap-node", () -> Enr.parse(s.strip())));
        }
        return discovery.toBuilder().discv5(discovery.discv5().toBuilder().enabled(discv5Discovery)
                .udpPort(discv5UdpPort == 0 ? 0 : shift.applyAsInt(discv5UdpPort)).bootstrap(bootstrap)
                .enrAutoUpdate(discv5EnrAutoUpdate).tableIpLimit(discv5TableIpLimit)
                .bucketIpLimit(discv5BucketIpLimit).bitsPerHop(discv5BitsPerHop).build()).build();
    }
}
