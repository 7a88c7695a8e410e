package io.wakurelay.services.peerexchange;

import io.wakurelay.services.Meters;
import io.wakurelay.services.ServerExchange;
import io.wakurelay.services.PeerRateLimiter;

import io.micrometer.core.instrument.MeterRegistry;
import io.wakurelay.p2p.Host;
import io.wakurelay.p2p.crypto.PeerId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The peer exchange server, {@value PeerExchangeConfig#PROTOCOL_ID} (rfc-index core/34): a peer asks for up to
 * {@code num_peers} records and gets what the {@link RecordSource} gives it, at most
 * {@link PeerExchangeConfig#maxPeersPerResponse()} of them. Bounded by {@link PeerExchangeConfig}: request size
 * (400), per-peer rate (429), time. Which records are served is not the wire's business: the node's source is
 * discovery's record cache (docs/discovery.md#peer-exchange: records of peers connected now, of this cluster, the
 * requester's own left out).
 */
public final class PeerExchangeService implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(PeerExchangeService.class);

    /** The records to answer with. */
    @FunctionalInterface
    public interface RecordSource {
        /**
         * Up to {@code max} records (each an ENR's RLP encoding) for {@code requester}. Called on the stream's event
         * loop: it must not block.
         */
        List<byte[]> recordsFor(PeerId requester, int max);
    }

    private final PeerExchangeConfig config;
    private final Host host;
    private final RecordSource records;
    private final Meters meters;
    private final PeerExchangeMetrics metrics;
    private final PeerRateLimiter rateLimiter;
    private volatile boolean closing;

    private PeerExchangeService(PeerExchangeConfig config, Host host, RecordSource records, MeterRegistry registry) {
        this.config = config;
        this.host = host;
        this.records = records;
        this.meters = new Meters(registry);
        this.metrics = new PeerExchangeMetrics(meters);
        this.rateLimiter = new PeerRateLimiter(config.rateLimit(), System::nanoTime);
    }

    /**
     * Starts serving {@value PeerExchangeConfig#PROTOCOL_ID} on {@code host} from {@code records}.
     *
     * @param registry where the service registers its meters (docs/metrics.md); removed at shutdown
     */
    public static PeerExchangeService start(PeerExchangeConfig config, Host host, RecordSource records,
            MeterRegistry registry) {
        PeerExchangeService service = new PeerExchangeService(Objects.requireNonNull(config, "config"),
                Objects.requireNonNull(host, "host"), Objects.requireNonNull(records, "records"),
                Objects.requireNonNull(registry, "registry"));
        host.handle(PeerExchangeConfig.PROTOCOL_ID, stream -> new PeerExchangeExchange(service));
        log.atInfo().addKeyValue("protocol", PeerExchangeConfig.PROTOCOL_ID)
                .addKeyValue("maxPeersPerResponse", config.maxPeersPerResponse())
                .addKeyValue("rateLimit", String.valueOf(config.rateLimit())).log("peer exchange service started");
        return service;
    }

    public PeerExchangeConfig config() {
        return config;
    }

    PeerExchangeMetrics metrics() {
        return metrics;
    }

    /** What bounds each of its exchanges: request size, time, each peer's rate. */
    ServerExchange.Limits exchangeLimits() {
        return new ServerExchange.Limits(config.maxRequestBytes(), config.requestTimeout(), rateLimiter, metrics.service);
    }

    boolean closing() {
        return closing;
    }

    /**
     * The records to answer {@code requester}'s request for {@code numPeers} with (num_peers is a uint64: a
     * negative long is a count above 2^63, capped like any other large one).
     */
    List<byte[]> recordsFor(PeerId requester, long numPeers) {
        int max = numPeers < 0 || numPeers > config.maxPeersPerResponse() ? config.maxPeersPerResponse() : (int) numPeers;
        if (max == 0) {
            return List.of();
        }
        List<byte[]> found = records.recordsFor(requester, max);
        return found.size() > max ? found.subList(0, max) : found; // a source that gives more does not widen the cap
    }

    /** Stops serving: the protocol is withdrawn and requests on streams already open are answered 503. Idempotent. */
    public Mono<Void> shutdown(Duration grace) {
        Objects.requireNonNull(grace, "grace");
        return Mono.fromRunnable(() -> {
            synchronized (this) {
                if (!closing) {
                    closing = true;
                    host.unhandle(PeerExchangeConfig.PROTOCOL_ID);
                    meters.removeAll();
                    log.info("peer exchange service shut down");
                }
            }
        });
    }

    @Override
    public void close() {
        shutdown(Duration.ZERO).block();
    }
}
