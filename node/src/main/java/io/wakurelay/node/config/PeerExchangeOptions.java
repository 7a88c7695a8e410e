package io.wakurelay.node.config;

import io.wakurelay.discovery.DiscoveryConfig;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.services.peerexchange.PeerExchangeConfig;
import io.wakurelay.services.peerexchange.PeerExchangeConfigBuilder;
import io.wakurelay.services.RateLimit;
import picocli.CommandLine;
import picocli.CommandLine.Option;


/** Peer exchange's options (nwaku's names), a picocli mixin of {@link NodeOptions}: the server and the node asked. */
public final class PeerExchangeOptions {
    @Option(names = "--peer-exchange", paramLabel = "BOOL", arity = "0..1", fallbackValue = "true",
            showDefaultValue = CommandLine.Help.Visibility.ALWAYS,
            description = "serve peer exchange (/vac/waku/peer-exchange/2.0.0-alpha1): answer with the ENRs of connected "
                    + "peers whose ENR this node knows (from --staticnode enr:… and from --peer-exchange-node)")
    boolean peerExchange;

    @Option(names = "--peer-exchange-node", paramLabel = "MULTIADDR",
            description = "node to ask for peers by peer exchange, at start and every minute; the peers found are "
                    + "dialled (within --max-connections) and their ENRs served in turn")
    String peerExchangeNode;

    /**
     * Peer exchange's wire: the server, when on.
     *
     * @param rate {@code --rate-limit}'s rate for px, or null for the default
     */
    PeerExchangeSettings settings(RateLimit rate) {
        PeerExchangeConfigBuilder server = PeerExchangeConfig.builder();
        if (rate != null) {
            server.rateLimit(rate);
        }
        return PeerExchangeSettings.DEFAULTS.toBuilder().server(peerExchange ? server.build() : null).build();
    }

    /** {@code discovery} with the node peer exchange asks ({@code --peer-exchange-node}), if one is given. */
    DiscoveryConfig discovery(DiscoveryConfig discovery) {
        Multiaddr node = peerExchangeNode == null || peerExchangeNode.isBlank() ? null
                : NodeOptions.option("--peer-exchange-node", () -> HostOptions.staticPeer(peerExchangeNode));
        return discovery.toBuilder().peerExchange(NodeOptions.option("--peer-exchange-node",
                () -> discovery.peerExchange().toBuilder().node(node).build())).build();
    }
}
