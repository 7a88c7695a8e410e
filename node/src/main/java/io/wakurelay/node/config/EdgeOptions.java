package io.wakurelay.node.config;

import io.wakurelay.p2p.multiaddr.Multiaddr;
import picocli.CommandLine.Option;

/**
 * The edge-mode options (nwaku's names), a picocli mixin of {@link NodeOptions}: the service nodes a node that does
 * not relay ({@code --relay=false}) asks instead; a relaying node may use them too.
 */
public final class EdgeOptions {
    @Option(names = "--storenode", paramLabel = "MULTIADDR",
            description = "store asked by REST queries without peerAddr when this node has no archive (nwaku's flag), "
                    + "/ip4/…/tcp/…/p2p/<peer id>")
    String storeNode;

    @Option(names = "--lightpushnode", paramLabel = "MULTIADDR",
            description = "service node that REST lightpush (/lightpush/v3 and v1) is sent through (nwaku's flag), "
                    + "/ip4/…/tcp/…/p2p/<peer id>")
    String lightpushNode;

    /** The edge part of the node's config; {@code relay} is {@code --relay}. */
    EdgeConfig edge(boolean relay) {
        return NodeConfig.DEFAULTS.edge().toBuilder().relay(relay)
                .storeNode(peer("--storenode", storeNode))
                .lightpushNode(peer("--lightpushnode", lightpushNode))
                .build();
    }

    private static Multiaddr peer(String option, String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        return NodeOptions.option(option, () -> RelayConfigs.staticPeer(text.strip()));
    }
}
