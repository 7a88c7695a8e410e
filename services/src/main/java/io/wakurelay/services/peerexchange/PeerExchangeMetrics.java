package io.wakurelay.services.peerexchange;

import io.wakurelay.services.Meters;
import io.wakurelay.services.ServiceMetrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.EnumMap;
import java.util.Map;

/**
 * The peer exchange server's meters: nwaku's {@code waku_px_peers_sent} and {@code waku_px_errors{type}}
 * ({@code waku_peer_exchange/protocol.nim}; our {@code type} is a fixed set, where nwaku also puts exception texts
 * there), the {@code waku_service_*} meters of {@value PeerExchangeConfig#PROTOCOL_ID}, and the answers by status.
 */
final class PeerExchangeMetrics {
    final ServiceMetrics service;
    final Counter peersSent;
    private final Map<PeerExchangeStatus, Counter> errors = new EnumMap<>(PeerExchangeStatus.class);

    PeerExchangeMetrics(Meters meters) {
        MeterRegistry registry = meters.registry();
        service = new ServiceMetrics(meters, PeerExchangeConfig.PROTOCOL_ID);
        peersSent = meters.add(Counter.builder("waku.px.peers.sent")
                .description("records sent to peer exchange requesters").register(registry));
        for (PeerExchangeStatus s : PeerExchangeStatus.values()) {
            if (s != PeerExchangeStatus.SUCCESS) {
                errors.put(s, meters.add(Counter.builder("waku.px.errors").tag("type", s.label())
                        .description("peer exchange requests answered with an error status").register(registry)));
            }
        }
    }

    void error(PeerExchangeStatus status) {
        Counter c = errors.get(status);
        if (c != null) {
            c.increment();
        }
    }
}
