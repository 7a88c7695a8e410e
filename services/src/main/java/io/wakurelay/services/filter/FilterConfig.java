package io.wakurelay.services.filter;

import io.soabase.recordbuilder.core.RecordBuilder;

import io.wakurelay.services.Durations;
import io.wakurelay.services.RateLimit;
import java.time.Duration;
import java.util.Objects;

/**
 * How the filter v2 server ({@link FilterService}) bounds subscriptions and pushes. Validated when built;
 * {@link #DEFAULTS} is the one source of every default. The first three are nwaku's flags of the same names and
 * defaults.
 *
 * @param subscriptionTimeout        a subscription that is not refreshed (subscribe or ping) for this long expires
 *                                   ({@code --filter-subscription-timeout}, 300 s)
 * @param maxPeersToServe            subscribers at once; past it a new peer's subscribe is answered 503
 *                                   ({@code --filter-max-peers-to-serve})
 * @param maxCriteriaPerPeer         (pubsub topic, content topic) pairs one subscriber may hold; past it 503
 *                                   ({@code --filter-max-criteria})
 * @param maxContentTopicsPerRequest content topics in one subscribe or unsubscribe (nwaku's 100); past it 400
 * @param maxRequestBytes            the largest subscribe request accepted (400 past it, before its body is read)
 * @param rateLimit                  requests per peer (nwaku's filter default: 30 a minute); past it 429
 * @param requestTimeout             time a peer has to send its whole request before its stream is reset
 * @param pushQueueMessages          pushes written to one subscriber and not yet taken by its connection; a push past
 *                                   it (or past {@code pushQueueBytes}) is dropped and counted, never buffered
 * @param pushQueueBytes             bytes of those pushes
 * @param maxDropsBeforeRemoval      consecutive pushes dropped for one subscriber before its subscription is removed as
 *                                   stuck
 */
@RecordBuilder
public record FilterConfig(Duration subscriptionTimeout, int maxPeersToServe, int maxCriteriaPerPeer,
                           int maxContentTopicsPerRequest, int maxRequestBytes, RateLimit rateLimit,
                           Duration requestTimeout, int pushQueueMessages, int pushQueueBytes,
                           int maxDropsBeforeRemoval) {
    public static final String SUBSCRIBE_PROTOCOL_ID = "/vac/waku/filter-subscribe/2.0.0-beta1";
    public static final String PUSH_PROTOCOL_ID = "/vac/waku/filter-push/2.0.0-beta1";

    public static final FilterConfig DEFAULTS = new FilterConfig(Duration.ofSeconds(300), 1000, 1000, 100, 64 * 1024,
            RateLimit.of(30, Duration.ofMinutes(1)), Duration.ofSeconds(10), 64, 1024 * 1024, 64);

    public FilterConfig {
        Durations.positive("subscriptionTimeout", subscriptionTimeout);
        Objects.requireNonNull(rateLimit, "rateLimit");
        Durations.positive("requestTimeout", requestTimeout);
        atLeast("maxPeersToServe", maxPeersToServe, 1);
        atLeast("maxCriteriaPerPeer", maxCriteriaPerPeer, 1);
        atLeast("maxContentTopicsPerRequest", maxContentTopicsPerRequest, 1);
        atLeast("maxRequestBytes", maxRequestBytes, 1024);
        atLeast("pushQueueMessages", pushQueueMessages, 1);
        // one push of the network's largest message must fit
        atLeast("pushQueueBytes", pushQueueBytes, 160 * 1024);
        atLeast("maxDropsBeforeRemoval", maxDropsBeforeRemoval, 1);
    }

    private static void atLeast(String name, long value, long min) {
        if (value < min) {
            throw new IllegalArgumentException(name + " must be at least " + min + ", was " + value);
        }
    }

    public FilterConfigBuilder toBuilder() {
        return FilterConfigBuilder.builder(this);
    }

    public static FilterConfigBuilder builder() {
        return FilterConfigBuilder.builder(DEFAULTS);
    }
}
