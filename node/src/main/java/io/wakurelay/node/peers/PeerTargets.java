package io.wakurelay.node.peers;

import io.wakurelay.node.config.RelayServiceRatio;

/**
 * nwaku's split of {@code --max-connections}: relay peers get the relay share (rounded up), of which a third is
 * dialled out ({@code outRelayPeersTarget}) and the rest may dial in ({@code inRelayPeersTarget}); service peers get
 * the service share (rounded down, nwaku's {@code maxServicePeers}).
 */
public record PeerTargets(int inRelay, int outRelay, int service) {

    public static PeerTargets of(RelayServiceRatio ratio, int maxConnections) {
        int relay = ratio.relayPeers(maxConnections);
        int out = relay / 3;
        return new PeerTargets(relay - out, out, ratio.servicePeers(maxConnections));
    }

    public int relay() {
        return inRelay + outRelay;
    }
}
