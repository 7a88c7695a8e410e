package io.wakurelay.node.config;

import io.soabase.recordbuilder.core.RecordBuilder;
import io.wakurelay.p2p.multiaddr.Multiaddr;

import io.wakurelay.services.lightpush.LightpushClientConfig;
import java.util.Objects;

/**
 * The node as a light client, as nwaku runs one (docs/services.md, "Edge mode"): whether it relays at all, and the
 * service nodes it asks instead.
 *
 * @param relay           false: the node does not mount {@code /vac/waku/relay/2.0.0} ({@code --relay=false}): no
 *                        gossipsub, no archive (nothing reaches it), no lightpush or filter service (nwaku mounts
 *                        neither without relay), and REST's {@code /relay} routes answer as nwaku's do then
 * @param storeNode       the store asked by REST queries without {@code peerAddr} when the node has no archive of its
 *                        own ({@code --storenode}); null: none
 * @param lightpushNode   the service node REST lightpush (v3 and the legacy v1) is sent through
 *                        ({@code --lightpushnode}); null: the node's own lightpush service, if any
 * @param lightpushClient how pushes through {@code lightpushNode} are bounded
 */
@RecordBuilder
public record EdgeConfig(boolean relay, Multiaddr storeNode, Multiaddr lightpushNode, LightpushClientConfig lightpushClient) {
    public static final EdgeConfig DEFAULTS = new EdgeConfig(true, null, null, LightpushClientConfig.DEFAULTS);

    public EdgeConfig {
        Objects.requireNonNull(lightpushClient, "lightpushClient");
        requirePeer("storeNode", storeNode);
        requirePeer("lightpushNode", lightpushNode);
    }

    private static void requirePeer(String name, Multiaddr address) {
        if (address != null && address.peerId().isEmpty()) {
            throw new IllegalArgumentException(name + " must end in /p2p/<peer id>, was " + address);
        }
    }

    public EdgeConfigBuilder toBuilder() {
        return EdgeConfigBuilder.builder(this);
    }
}
