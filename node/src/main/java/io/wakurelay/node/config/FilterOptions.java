package io.wakurelay.node.config;

import io.wakurelay.services.RateLimit;
import io.wakurelay.services.filter.FilterConfig;
import io.wakurelay.services.filter.FilterConfigBuilder;
import picocli.CommandLine;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.time.Duration;

/**
 * The filter service's options (nwaku's names), a picocli mixin of {@link NodeOptions}, with the filter client's
 * {@link FilterClientOptions}.
 */
public final class FilterOptions {
    @Option(names = "--filter", paramLabel = "BOOL", arity = "0..1", fallbackValue = "true", showDefaultValue = CommandLine.Help.Visibility.ALWAYS,
            description = "serve filter v2 (/vac/waku/filter-subscribe/2.0.0-beta1): light clients subscribe to messages")
    boolean filter;

    @Option(names = "--filter-subscription-timeout", paramLabel = "SECONDS",
            description = "a filter subscription not refreshed for this long expires")
    long filterSubscriptionTimeout;

    @Option(names = "--filter-max-peers-to-serve", paramLabel = "N",
            description = "filter subscribers at once; a new one past it is answered 503")
    int filterMaxPeersToServe;

    @Option(names = "--filter-max-criteria", paramLabel = "N",
            description = "(pubsub topic, content topic) pairs one filter subscriber may hold")
    int filterMaxCriteria;

    @Mixin
    FilterClientOptions filterClientOptions = new FilterClientOptions();

    /** @param rate {@code --rate-limit}'s rate for filter, or null for the default; returns null when filter is off */
    FilterConfig filter(RateLimit rate) {
        if (!filter) {
            return null;
        }
        FilterConfigBuilder config = FilterConfig.builder()
                .subscriptionTimeout(Duration.ofSeconds(filterSubscriptionTimeout))
                .maxPeersToServe(filterMaxPeersToServe)
                .maxCriteriaPerPeer(filterMaxCriteria);
        if (rate != null) {
            config.rateLimit(rate);
        }
        return NodeOptions.option("--filter-*", config::build);
    }

    /** {@code services} with the filter client of {@code --filternode}. */
    ServicesConfig withClient(ServicesConfig services) {
        return filterClientOptions.apply(services);
    }
}
