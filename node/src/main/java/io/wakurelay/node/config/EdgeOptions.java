package io.wakurelay.node.config;

import io.wakurelay.p2p.multiaddr.Multiaddr;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * Relay on or off and the edge-mode options (nwaku's names), a picocli mixin of {@link NodeOptions}: the service nodes
 * a node that does not relay ({@code --relay=false}) asks instead; a relaying node may use them too.
 */
public final class EdgeOptions {
    @Option(names = "--relay", paramLabel = "BOOL", arity = "0..1", fallbackValue = "true", showDefaultValue = CommandLine.Help.Visibility.ALWAYS,
            description = "relay messages (nwaku's flag); false: an edge node that mounts no relay, archives nothing and "
                    + "serves no lightpush or filter, and asks --storenode and --lightpushnode instead")
    boolean relay;

    @Option(names = "--storenode", paramLabel = "MULTIADDR",
            description = "store asked by REST queries without peerAddr when this node has no archive (nwaku's flag), "
                    + "/ip4/…/tcp/…/p2p/<peer id>")
    String storeNode;

    @Option(names = "--lightpushnode", paramLabel = "MULTIADDR",
            description = "service node that REST lightpush (/lightpush/v3 and v1) is sent through (nwaku's flag), "
                    + "/ip4/…/tcp/…/p2p/<peer id>")
    String lightpushNode;

    /** The edge part of the node's config. */
    EdgeConfig edge() {
        return NodeConfig.DEFAULTS.edge().toBuilder().relay(relay)
                .storeNode(peer("--storenode", storeNode))
                .lightpushNode(peer("--lightpushnode", lightpushNode))
                .build();
    }

    private static Multiaddr peer(String option, String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        return NodeOptions.option(option, () -> HostOptions.staticPeer(text.strip()));
    }
}
