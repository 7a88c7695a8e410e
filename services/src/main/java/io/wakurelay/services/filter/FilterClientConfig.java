package io.wakurelay.services.filter;

import io.soabase.recordbuilder.core.RecordBuilder;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.protocol.ProtocolLimits;

import io.wakurelay.services.Durations;
import java.time.Duration;

/**
 * How the filter v2 client ({@link FilterClient}) subscribes at a service node and what it holds, each bound as nwaku
 * sets it where nwaku has one.
 *
 * @param serviceNode                the service node ({@code --filternode}, a multiaddr ending in {@code /p2p/<id>});
 *                                   null: a connected peer that serves filter, as nwaku picks one
 * @param maxCriteria                (pubsub topic, content topic) pairs held at once: nwaku's service node serves at
 *                                   most 1000 per subscriber ({@code MaxFilterCriteriaPerPeer}), so more could not be
 *                                   served anyway; a subscribe past it is refused (429)
 * @param maxContentTopicsPerRequest content topics in one request: nwaku's {@code MaxContentTopicsPerRequest}, 100
 * @param maxResponseBytes           the largest subscribe response read (nwaku's 64 KiB)
 * @param maxPushBytes               the largest push read: nwaku's {@code DefaultMaxPushSize} (ten messages of the
 *                                   network's largest size and 64 KiB)
 * @param requestTimeout             a request's time from the dial to the answer (nwaku's REST waits 5 s)
 * @param refreshInterval            how often the service node is pinged while subscriptions are held; a failed ping
 *                                   (the service node restarted, or forgot them) subscribes them all again (nwaku's
 *                                   filter subscriber example maintains its subscription every 60 s)
 * @param maxInFlightRequests        requests under way at once; one more fails at once (429)
 * @param limits                     the rules a pushed message must pass, the relay's (the node gives its own): size,
 *                                   topics, meta; one that fails them is dropped (counted)
 */
@RecordBuilder
public record FilterClientConfig(Multiaddr serviceNode, int maxCriteria, int maxContentTopicsPerRequest,
                                 int maxResponseBytes, int maxPushBytes, Duration requestTimeout,
                                 Duration refreshInterval, int maxInFlightRequests, ProtocolLimits limits) {
    public static final FilterClientConfig DEFAULTS = new FilterClientConfig(null, 1000, 100, 64 * 1024,
            10 * ProtocolLimits.DEFAULT_MAX_MESSAGE_SIZE + 64 * 1024, Duration.ofSeconds(5), Duration.ofSeconds(60), 16,
            ProtocolLimits.DEFAULTS);

    public FilterClientConfig {
        if (serviceNode != null && serviceNode.peerId().isEmpty()) {
            throw new IllegalArgumentException("the filter service node's multiaddr must end in /p2p/<peer id>, was "
                    + serviceNode);
        }
        positive("maxCriteria", maxCriteria);
        positive("maxContentTopicsPerRequest", maxContentTopicsPerRequest);
        positive("maxResponseBytes", maxResponseBytes);
        positive("maxPushBytes", maxPushBytes);
        positive("maxInFlightRequests", maxInFlightRequests);
        Durations.positive("requestTimeout", requestTimeout);
        Durations.positive("refreshInterval", refreshInterval);
        java.util.Objects.requireNonNull(limits, "limits");
    }

    private static void positive(String name, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(name + " must be positive, was " + value);
        }
    }

    public FilterClientConfigBuilder toBuilder() {
        return FilterClientConfigBuilder.builder(this);
    }

    public static FilterClientConfigBuilder builder() {
        return FilterClientConfigBuilder.builder(DEFAULTS);
    }
}
