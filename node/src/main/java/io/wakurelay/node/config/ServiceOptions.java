package io.wakurelay.node.config;

import io.wakurelay.node.ServicesConfig;
import io.wakurelay.services.FilterConfig;
import io.wakurelay.services.LightpushConfig;
import io.wakurelay.services.RateLimit;
import io.wakurelay.services.StoreClientConfig;
import io.wakurelay.services.StoreServiceConfig;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The Waku services' part of the node's configuration (store, lightpush, filter), from its command line. */
final class ServiceOptions {
    /** The protocols {@code --rate-limit} names, as nwaku names them. */
    private static final List<String> RATE_LIMITED = List.of("store", "lightpush", "filter");

    private ServiceOptions() {
    }

    static ServicesConfig services(NodeOptions o) {
        Map<String, RateLimit> rates = rateLimits(o.rateLimits);
        StoreServiceConfig.Builder store = StoreServiceConfig.builder();
        LightpushConfig.Builder lightpush = LightpushConfig.builder();
        FilterConfig.Builder filter = FilterConfig.builder()
                .subscriptionTimeout(Duration.ofSeconds(o.filterSubscriptionTimeout))
                .maxPeersToServe(o.filterMaxPeersToServe)
                .maxCriteriaPerPeer(o.filterMaxCriteria);
        if (rates.containsKey("store")) {
            store.rateLimit(rates.get("store"));
        }
        if (rates.containsKey("lightpush")) {
            lightpush.rateLimit(rates.get("lightpush"));
        }
        if (rates.containsKey("filter")) {
            filter.rateLimit(rates.get("filter"));
        }
        return new ServicesConfig(o.store ? store.build() : null, o.lightpush ? lightpush.build() : null,
                o.filter ? filter.build() : null, StoreClientConfig.DEFAULTS);
    }

    /** {@code store:30/1s}, {@code lightpush:none}, or a bare rate for all three; a later entry overrides an earlier. */
    static Map<String, RateLimit> rateLimits(List<String> entries) {
        Map<String, RateLimit> rates = new LinkedHashMap<>();
        for (String entry : entries) {
            String text = entry.trim();
            int colon = text.indexOf(':');
            if (colon < 0) {
                RateLimit all = RateLimit.parse(text);
                RATE_LIMITED.forEach(p -> rates.put(p, all));
                continue;
            }
            String protocol = text.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            if (!RATE_LIMITED.contains(protocol)) {
                throw new IllegalArgumentException("'" + protocol + "' is not a rate-limited protocol; use one of "
                        + String.join(", ", RATE_LIMITED));
            }
            rates.put(protocol, RateLimit.parse(text.substring(colon + 1).trim()));
        }
        return rates;
    }
}
