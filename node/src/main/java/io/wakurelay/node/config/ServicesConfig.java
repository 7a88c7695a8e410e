package io.wakurelay.node.config;

import io.soabase.recordbuilder.core.RecordBuilder;

import io.wakurelay.services.filter.FilterClientConfig;
import io.wakurelay.services.filter.FilterConfig;
import io.wakurelay.services.lightpush.LightpushConfig;
import io.wakurelay.services.store.StoreClientConfig;
import io.wakurelay.services.store.StoreServiceConfig;
import java.util.Objects;

/**
 * The Waku request-response services the node serves on its host (docs/services.md); a null part is off.
 *
 * @param store        the Store v3 server, run when the node archives ({@code --store})
 * @param lightpush    the lightpush v3 server ({@code --lightpush})
 * @param filter       the filter v2 server ({@code --filter})
 * @param storeClient  how the node asks other nodes' stores (REST's {@code peerAddr}); always on
 * @param peerExchange peer exchange's server and client (the records served, and the node asked, are
 *                     {@link NodeConfig#discovery()}'s)
 * @param filterClient the filter client ({@code --filternode}, REST's /filter/v2); always on, as in nwaku
 */
@RecordBuilder
public record ServicesConfig(StoreServiceConfig store, LightpushConfig lightpush, FilterConfig filter,
                             StoreClientConfig storeClient, PeerExchangeSettings peerExchange,
                             FilterClientConfig filterClient) {
    public static final ServicesConfig DEFAULTS = new ServicesConfig(StoreServiceConfig.DEFAULTS, LightpushConfig.DEFAULTS,
            FilterConfig.DEFAULTS, StoreClientConfig.DEFAULTS, PeerExchangeSettings.DEFAULTS, FilterClientConfig.DEFAULTS);

    public ServicesConfig {
        Objects.requireNonNull(storeClient, "storeClient");
        Objects.requireNonNull(peerExchange, "peerExchange");
        Objects.requireNonNull(filterClient, "filterClient");
    }

    /** With the filter client as {@link FilterClientConfig#DEFAULTS}. */
    public ServicesConfig(StoreServiceConfig store, LightpushConfig lightpush, FilterConfig filter,
            StoreClientConfig storeClient, PeerExchangeSettings peerExchange) {
        this(store, lightpush, filter, storeClient, peerExchange, FilterClientConfig.DEFAULTS);
    }

    /** With peer exchange as {@link PeerExchangeSettings#DEFAULTS}. */
    public ServicesConfig(StoreServiceConfig store, LightpushConfig lightpush, FilterConfig filter,
            StoreClientConfig storeClient) {
        this(store, lightpush, filter, storeClient, PeerExchangeSettings.DEFAULTS);
    }

    public ServicesConfigBuilder toBuilder() {
        return ServicesConfigBuilder.builder(this);
    }
}
