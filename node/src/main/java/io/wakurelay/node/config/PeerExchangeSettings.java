package io.wakurelay.node.config;

import io.soabase.recordbuilder.core.RecordBuilder;
import io.wakurelay.services.peerexchange.PeerExchangeClientConfig;
import io.wakurelay.services.peerexchange.PeerExchangeConfig;

import java.util.Objects;

/**
 * Peer exchange's wire in the node (docs/discovery.md#peer-exchange): the server and the client. Whom the node asks,
 * and the records it serves, are discovery's ({@link NodeConfig#discovery()}).
 *
 * @param server the server ({@code --peer-exchange}); null: off
 * @param client the bounds of one request; the client always runs (as nwaku mounts it), asked only with a
 *               {@code --peer-exchange-node}
 */
@RecordBuilder
public record PeerExchangeSettings(PeerExchangeConfig server, PeerExchangeClientConfig client) {
    /** Served; the client's bounds. */
    public static final PeerExchangeSettings DEFAULTS = new PeerExchangeSettings(PeerExchangeConfig.DEFAULTS,
            PeerExchangeClientConfig.DEFAULTS);

    public PeerExchangeSettings {
        Objects.requireNonNull(client, "client");
    }

    public PeerExchangeSettingsBuilder toBuilder() {
        return PeerExchangeSettingsBuilder.builder(this);
    }
}
