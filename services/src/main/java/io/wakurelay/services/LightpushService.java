package io.wakurelay.services;

import io.micrometer.core.instrument.MeterRegistry;
import io.wakurelay.p2p.Host;
import io.wakurelay.relay.Relay;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

import java.time.Duration;
import java.util.Objects;

/**
 * The lightpush v3 server, {@value LightpushConfig#PROTOCOL_ID} (waku-org/specs standards/core/lightpush.md): a
 * light client hands over a message, this node validates it, relays it on the mesh (and so archives it, through
 * the relay's accepted messages) and answers with the status and the number of relay peers it went to. Bounded by
 * {@link LightpushConfig}: request size (413) and per-peer rate (429). docs/services.md lists the statuses.
 *
 * <p>Started, it serves the protocol on the host (and identify advertises it); shut down, it no longer does.
 */
public final class LightpushService implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(LightpushService.class);

    private final LightpushConfig config;
    private final Host host;
    private final Relay relay;
    private final Meters meters;
    private final LightpushMetrics metrics;
    private final PeerRateLimiter rateLimiter;
    private volatile boolean closing;

    private LightpushService(LightpushConfig config, Host host, Relay relay, MeterRegistry registry) {
        this.config = config;
        this.host = host;
        this.relay = relay;
        this.meters = new Meters(registry);
        this.metrics = new LightpushMetrics(meters);
        this.rateLimiter = new PeerRateLimiter(config.rateLimit(), System::nanoTime);
    }

    /**
     * Starts serving {@value LightpushConfig#PROTOCOL_ID} on {@code host}, publishing through {@code relay}.
     *
     * @param registry where the service registers its meters (docs/services.md); removed at shutdown
     */
    public static LightpushService start(LightpushConfig config, Host host, Relay relay, MeterRegistry registry) {
        LightpushService service = new LightpushService(Objects.requireNonNull(config, "config"),
                Objects.requireNonNull(host, "host"), Objects.requireNonNull(relay, "relay"),
                Objects.requireNonNull(registry, "registry"));
        host.handle(LightpushConfig.PROTOCOL_ID, stream -> new LightpushExchange(service));
        log.info("lightpush service started: {} (requests up to {} bytes, rate {} per peer)", LightpushConfig.PROTOCOL_ID,
                config.maxRequestBytes(), config.rateLimit());
        return service;
    }

    public LightpushConfig config() {
        return config;
    }

    Relay relay() {
        return relay;
    }

    LightpushMetrics metrics() {
        return metrics;
    }

    PeerRateLimiter rateLimiter() {
        return rateLimiter;
    }

    boolean isClosing() {
        return closing;
    }

    /**
     * Stops serving: the protocol is no longer offered and requests on streams already open are answered 503. A
     * publish never waits, so there is nothing to drain. Idempotent.
     */
    public Mono<Void> shutdown(Duration grace) {
        Objects.requireNonNull(grace, "grace");
        return Mono.fromRunnable(() -> {
            synchronized (this) {
                if (!closing) {
                    closing = true;
                    host.unhandle(LightpushConfig.PROTOCOL_ID);
                    meters.removeAll();
                    log.info("lightpush service shut down");
                }
            }
        });
    }

    @Override
    public void close() {
        shutdown(Duration.ZERO).block();
    }
}
