package io.wakurelay.node.rest;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/** The REST API's meters (docs/metrics.md): its relay caches and its event streams. */
public final class RestMetrics {
    private RestMetrics() {
    }

    public static void bind(MeterRegistry registry, TopicCache cache, LiveStreams streams) {
        Gauge.builder("waku.rest.cache.messages", cache, TopicCache::size)
                .description("messages held for the REST relay caches (start-up topics and REST subscriptions)").register(registry);
        Gauge.builder("waku.rest.cache.bytes", cache, TopicCache::bytes).baseUnit("bytes")
                .description("bytes the REST relay caches hold alive, the buffers the messages arrived in (bounded by --rest-relay-cache-size)").register(registry);
        FunctionCounter.builder("waku.rest.cache.dropped", cache, TopicCache::dropped)
                .description("cached messages dropped because a topic's cache or the caches' byte budget was full").register(registry);
        Gauge.builder("waku.rest.streams.open", streams, LiveStreams::openStreams)
                .description("open Server-Sent Event streams").register(registry);
        Gauge.builder("waku.rest.streams.buffered", streams, LiveStreams::bufferedBytes).baseUnit("bytes")
                .description("bytes of events waiting for their stream readers, all streams together").register(registry);
        FunctionCounter.builder("waku.rest.streams.dropped", streams, LiveStreams::dropped)
                .description("events not sent to a stream reader that was too slow").register(registry);
        FunctionCounter.builder("waku.rest.streams.disconnected", streams, LiveStreams::disconnected)
                .description("stream readers disconnected because they took nothing while a whole buffer of events was dropped").register(registry);
    }

    /** The server's requests in flight, those refused at the bound, and those its guard refused. */
    public static void bindRequests(MeterRegistry registry, RestServer server) {
        Gauge.builder("waku.rest.requests.in_flight", server, RestServer::inFlight)
                .description("REST requests being answered, event streams included").register(registry);
        FunctionCounter.builder("waku.rest.requests.refused", server, RestServer::refusedInFlight)
                .description("REST requests answered 503 at once because as many were being answered as allowed")
                .register(registry);
        for (RequestGuard.Refusal refusal : RequestGuard.Refusal.values()) {
            FunctionCounter.builder("waku.rest.requests.forbidden", server, s -> s.forbidden(refusal))
                    .tag("reason", refusal.label())
                    .description("REST requests refused (403): a Host not of this node (DNS rebinding), an Origin not "
                            + "allowed, a web page's non-CORS request to a GET that drains a message cache")
                    .register(registry);
        }
    }
}
