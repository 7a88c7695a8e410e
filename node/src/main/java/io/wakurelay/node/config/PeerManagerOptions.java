package io.wakurelay.node.config;

import picocli.CommandLine;
import picocli.CommandLine.Option;

/** The peer manager's options (nwaku's names), mixed into {@link NodeOptions}. */
public final class PeerManagerOptions {

    @Option(names = "--relay-service-ratio", paramLabel = "RELAY:SERVICE",
            showDefaultValue = CommandLine.Help.Visibility.ALWAYS,
            description = "of --max-connections, the percent kept for relay peers and for service peers (store, "
                    + "filter, lightpush, peer exchange only); a third of the relay share is dialled out, inbound "
                    + "relay and service peers beyond their share are disconnected")
    String relayServiceRatio;

    @Option(names = "--peer-store-capacity", paramLabel = "N", showDefaultValue = CommandLine.Help.Visibility.ALWAYS,
            description = "discovered peers kept as candidates to dial (0: 5 × --max-connections, as nwaku); at least "
                    + "--max-connections")
    int peerStoreCapacity;

    @Option(names = "--dial-private-peers", paramLabel = "BOOL", arity = "0..1", fallbackValue = "true",
            showDefaultValue = CommandLine.Help.Visibility.ALWAYS,
            description = "dial the private and loopback addresses of peers that discovery finds (DNS discovery, discv5, "
                    + "peer exchange) even when this node's own addresses are public; off, they are dialled only when "
                    + "this node's are private (or all loopback) too")
    boolean dialPrivatePeers;

    /** The peer manager's part of the node's config, checked against the host's {@code maxConnections}. */
    PeerManagerConfig config(int maxConnections) {
        PeerManagerConfig config = NodeOptions.option("--relay-service-ratio/--peer-store-capacity",
                () -> NodeConfig.DEFAULTS.peerManager().toBuilder()
                        .ratio(RelayServiceRatio.parse(relayServiceRatio)).storeCapacity(peerStoreCapacity)
                        .dialPrivatePeers(dialPrivatePeers).build());
        if (config.storeCapacity(maxConnections) < maxConnections) { // nwaku refuses this too
            throw new IllegalArgumentException("--peer-store-capacity (" + peerStoreCapacity
                    + ") must be at least --max-connections (" + maxConnections + ")");
        }
        return config;
    }
}
