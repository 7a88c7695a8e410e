package io.wakurelay.node;

import io.wakurelay.services.FilterConfig;
import io.wakurelay.services.LightpushConfig;
import io.wakurelay.services.StoreClientConfig;
import io.wakurelay.services.StoreServiceConfig;

import java.util.Objects;

/**
 * The Waku request-response services the node serves on its host (docs/services.md); a null part is off.
 *
 * @param store       the Store v3 server, run when the node archives ({@code --store})
 * @param lightpush   the lightpush v3 server ({@code --lightpush})
 * @param filter      the filter v2 server ({@code --filter})
 * @param storeClient how the node asks other nodes' stores (REST's {@code peerAddr}); always on
 */
public record ServicesConfig(StoreServiceConfig store, LightpushConfig lightpush, FilterConfig filter,
                             StoreClientConfig storeClient) {
    public static final ServicesConfig DEFAULTS = new ServicesConfig(StoreServiceConfig.DEFAULTS, LightpushConfig.DEFAULTS,
            FilterConfig.DEFAULTS, StoreClientConfig.DEFAULTS);

    public ServicesConfig {
        Objects.requireNonNull(storeClient, "storeClient");
    }
}
