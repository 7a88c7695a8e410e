package io.wakurelay.services;

import io.micrometer.core.instrument.MeterRegistry;
import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.discovery.peers.PeerRecords;
import io.wakurelay.p2p.Host;
import io.wakurelay.p2p.crypto.PeerId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * The peer exchange server, {@value PeerExchangeConfig#PROTOCOL_ID} (rfc-index core/34): a peer asks for up to
 * {@code num_peers} records and gets a random sample of the records this node knows ({@link PeerRecords}) of peers
 * it is connected to now, of its own cluster (or of none named), the requester's own record left out; at most
 * {@link PeerExchangeConfig#maxPeersPerResponse()} of them. Bounded by {@link PeerExchangeConfig}: request size
 * (400), per-peer rate (429), time.
 *
 * <p>"Connected now" is this node's proof that the record's addresses reach a live node of the network: nwaku
 * serves the records discv5 found, whether or not it reached them. Where the records come from is the node's
 * business (docs/discovery.md): today the ENRs given as static peers and the records peer exchange itself found.
 */
public final class PeerExchangeService implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(PeerExchangeService.class);

    private final PeerExchangeConfig config;
    private final Host host;
    private final PeerRecords records;
    private final int clusterId;
    private final Meters meters;
    private final PeerExchangeMetrics metrics;
    private final PeerRateLimiter rateLimiter;
    private final SplittableRandom random = new SplittableRandom();
    private volatile boolean closing;

    private PeerExchangeService(PeerExchangeConfig config, Host host, PeerRecords records, int clusterId,
            MeterRegistry registry) {
        this.config = config;
        this.host = host;
        this.records = records;
        this.clusterId = clusterId;
        this.meters = new Meters(registry);
        this.metrics = new PeerExchangeMetrics(meters);
        this.rateLimiter = new PeerRateLimiter(config.rateLimit(), System::nanoTime);
    }

    /**
     * Starts serving {@value PeerExchangeConfig#PROTOCOL_ID} on {@code host} from {@code records}.
     *
     * @param clusterId records that name another cluster are never served
     * @param registry  where the service registers its meters (docs/metrics.md); removed at shutdown
     */
    public static PeerExchangeService start(PeerExchangeConfig config, Host host, PeerRecords records, int clusterId,
            MeterRegistry registry) {
        PeerExchangeService service = new PeerExchangeService(Objects.requireNonNull(config, "config"),
                Objects.requireNonNull(host, "host"), Objects.requireNonNull(records, "records"), clusterId,
                Objects.requireNonNull(registry, "registry"));
        host.handle(PeerExchangeConfig.PROTOCOL_ID, stream -> new PeerExchangeExchange(service));
        log.info("peer exchange service started: {} (at most {} records per answer, rate {} per peer)",
                PeerExchangeConfig.PROTOCOL_ID, config.maxPeersPerResponse(), config.rateLimit());
        return service;
    }

    public PeerExchangeConfig config() {
        return config;
    }

    PeerExchangeMetrics metrics() {
        return metrics;
    }

    PeerRateLimiter rateLimiter() {
        return rateLimiter;
    }

    boolean closing() {
        return closing;
    }

    /**
     * The records to answer {@code requester}'s request for {@code numPeers} with (num_peers is a uint64: a
     * negative long is a count above 2^63, capped like any other large one).
     */
    List<Enr> recordsFor(PeerId requester, long numPeers) {
        int max = numPeers < 0 || numPeers > config.maxPeersPerResponse() ? config.maxPeersPerResponse() : (int) numPeers;
        synchronized (random) {
            return records.sample(max, r -> servable(r, requester), random);
        }
    }

    private boolean servable(Enr record, PeerId requester) {
        PeerId peer = record.peerId();
        return !peer.equals(requester) && host.connection(peer).isPresent() && PeerRecords.ofCluster(record, clusterId);
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
