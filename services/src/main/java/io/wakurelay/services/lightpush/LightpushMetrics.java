package io.wakurelay.services.lightpush;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;

import io.wakurelay.services.Meters;
import io.wakurelay.services.ServiceMetrics;
import java.util.EnumMap;
import java.util.Map;

/**
 * The lightpush v3 server's meters: nwaku's {@code waku_lightpush_v3_messages_total{type="PushRequest"}} and
 * {@code waku_lightpush_v3_errors_total{type=<status code>}} ({@code waku_lightpush/protocol_metrics.nim}), the
 * relay peer count of successful pushes, and the {@code waku_service_*} meters of {@value LightpushConfig#PROTOCOL_ID}.
 */
final class LightpushMetrics {
    final ServiceMetrics service;
    final Counter requests;
    final DistributionSummary relayPeers;
    private final Map<LightpushStatus, Counter> errors = new EnumMap<>(LightpushStatus.class);

    LightpushMetrics(Meters meters) {
        MeterRegistry registry = meters.registry();
        service = new ServiceMetrics(meters, LightpushConfig.PROTOCOL_ID);
        requests = meters.add(Counter.builder("waku.lightpush.v3.messages").tag("type", "PushRequest")
                .description("lightpush requests received and decoded").register(registry));
        relayPeers = meters.add(DistributionSummary.builder("waku.lightpush.relay.peers")
                .description("peers a lightpushed message was relayed to").register(registry));
        for (LightpushStatus s : LightpushStatus.values()) {
            if (s != LightpushStatus.SUCCESS) {
                errors.put(s, meters.add(Counter.builder("waku.lightpush.v3.errors").tag("type", s.label())
                        .description("lightpush requests answered with an error status, by status code").register(registry)));
            }
        }
    }

    void error(LightpushStatus status) {
        Counter c = errors.get(status);
        if (c != null) {
            c.increment();
        }
    }
}
