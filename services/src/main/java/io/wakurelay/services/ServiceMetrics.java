package io.wakurelay.services;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import io.wakurelay.protocol.LatencyBuckets;

import java.time.Duration;

/**
 * The meters every service has, named as nwaku's {@code waku_service_*} ({@code common/rate_limit/service_metrics.nim})
 * and tagged with the service's protocol id: requests served or rejected by the rate limit, the time from a whole
 * request to its response, and the bytes in and out.
 */
public final class ServiceMetrics {
    final Counter served;
    final Counter rejected;
    final Timer handling;
    final Counter bytesIn;
    final Counter bytesOut;

    public ServiceMetrics(Meters meters, String protocolId) {
        io.micrometer.core.instrument.MeterRegistry registry = meters.registry();
        served = meters.add(Counter.builder("waku.service.requests").tag("service", protocolId).tag("state", "served")
                .description("requests to a non-relay service, served or rejected by its rate limit").register(registry));
        rejected = meters.add(Counter.builder("waku.service.requests").tag("service", protocolId).tag("state", "rejected")
                .description("requests to a non-relay service, served or rejected by its rate limit").register(registry));
        handling = meters.add(Timer.builder("waku.service.request.handling.duration").tag("service", protocolId)
                .description("time from a whole request to its response being queued on the stream")
                .serviceLevelObjectives(LatencyBuckets.between(Duration.ofNanos(100_000), Duration.ofSeconds(1))).register(registry));
        bytesIn = meters.add(Counter.builder("waku.service.network.bytes").tag("service", protocolId).tag("direction", "in")
                .baseUnit("bytes").description("bytes of a service's requests and responses").register(registry));
        bytesOut = meters.add(Counter.builder("waku.service.network.bytes").tag("service", protocolId).tag("direction", "out")
                .baseUnit("bytes").description("bytes of a service's requests and responses").register(registry));
    }
}
