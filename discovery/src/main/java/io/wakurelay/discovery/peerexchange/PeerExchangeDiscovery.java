package io.wakurelay.discovery.peerexchange;

import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.discovery.enr.EnrFormatException;
import io.wakurelay.discovery.peerexchange.PeerExchangeDiscoveryMetrics.Fate;
import io.wakurelay.discovery.peers.Origin;
import io.wakurelay.discovery.peers.PeerRecords;
import io.wakurelay.discovery.peers.RecordSink;
import io.wakurelay.p2p.Host;
import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * Peer exchange as a finder (docs/discovery.md#peer-exchange): asks {@link PeerExchangeDiscoveryConfig#node()} for
 * {@link PeerExchangeDiscoveryConfig#numPeers()} records at start and then every
 * {@link PeerExchangeDiscoveryConfig#interval()}, as nwaku's {@code peerExchangeLoop} does for
 * {@code --peer-exchange-node}, through the wire client ({@link PeerExchangeRequests}). Of each answer, records that do
 * not decode and verify, name no TCP or WebSocket address (of a peer not connected), are this node's or of another
 * cluster are dropped and counted; the rest are offered to the {@link RecordSink} (the peer manager), which alone
 * dials; it reports each dial back ({@link #dialled}). A round that fails is logged and the next one comes at its
 * time; rounds never overlap (a round that takes longer than the interval delays the next).
 */
public final class PeerExchangeDiscovery implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(PeerExchangeDiscovery.class);

    private final PeerExchangeDiscoveryConfig config;
    private final PeerExchangeRequests requests;
    private final PeerId self;
    private final Predicate<PeerId> connected;
    private final int clusterId;
    private final PeerRecords records;
    private final PeerExchangeDiscoveryMetrics metrics;
    private final Scheduler timer;
    private volatile Disposable rounds;

    PeerExchangeDiscovery(PeerExchangeDiscoveryConfig config, PeerExchangeRequests requests, PeerId self,
            Predicate<PeerId> connected, int clusterId, PeerRecords records, PeerExchangeDiscoveryMetrics metrics,
            Scheduler timer) {
        this.config = Objects.requireNonNull(config, "config");
        this.requests = Objects.requireNonNull(requests, "requests");
        this.self = Objects.requireNonNull(self, "self");
        this.connected = connected;
        this.clusterId = clusterId;
        this.records = records;
        this.metrics = metrics;
        this.timer = timer;
    }

    /**
     * @param host    this node's host: its own peer id, and which peers are connected now
     * @param records the record cache, to count the records of peers it does not hold yet
     */
    public static PeerExchangeDiscovery create(PeerExchangeDiscoveryConfig config, PeerExchangeRequests requests,
            Host host, int clusterId, PeerRecords records, PeerExchangeDiscoveryMetrics metrics) {
        return new PeerExchangeDiscovery(config, requests, host.peerId(), p -> host.connection(p).isPresent(),
                clusterId, records, metrics, Schedulers.parallel());
    }

    /** Starts asking the configured node, when there is one; what it answers goes to {@code sink}. */
    public void start(RecordSink sink) {
        Multiaddr node = config.node();
        if (node == null) {
            return;
        }
        log.atInfo().addKeyValue("address", String.valueOf(node)).addKeyValue("numPeers", config.numPeers())
                .addKeyValue("intervalSeconds", config.interval().toSeconds())
                .log("peer exchange: asking the node for peers now and at every interval");
        rounds = Flux.interval(Duration.ZERO, config.interval(), timer)
                .onBackpressureDrop()
                .concatMap(i -> ask(node)
                        .doOnNext(found -> {
                            log.atInfo().addKeyValue("address", String.valueOf(node)).addKeyValue("records", found.size())
                                    .log("peer exchange: the node answered records worth dialling");
                            sink.offer(found, Origin.PEER_EXCHANGE);
                        })
                        .onErrorResume(e -> {
                            log.atWarn().addKeyValue("address", String.valueOf(node)).addKeyValue("reason", e.getMessage())
                                    .log("peer exchange: asking the node failed");
                            return Mono.empty();
                        }), 1)
                .subscribe();
    }

    /** Asks {@code node} once: the records of its answer worth dialling (see the class comment). */
    Mono<List<Enr>> ask(Multiaddr node) {
        return requests.request(node, config.numPeers()).map(raw -> {
            List<Enr> out = new ArrayList<>();
            for (byte[] r : raw.subList(0, Math.min(raw.size(), config.numPeers()))) {
                Enr record = accept(r);
                if (record != null) {
                    out.add(record);
                }
            }
            return out;
        });
    }

    /** The decoded record when it is worth dialling; null (and counted) when it is dropped. */
    private Enr accept(byte[] raw) {
        metrics.received.increment();
        Enr record;
        try {
            record = Enr.decode(raw);
        } catch (EnrFormatException e) {
            log.atDebug().addKeyValue("reason", e.getMessage()).log("a peer exchange record does not decode");
            metrics.record(Fate.INVALID);
            return null;
        }
        if (record.peerId().equals(self)) {
            metrics.record(Fate.OWN);
            return null;
        }
        if (!PeerRecords.ofCluster(record, clusterId)) {
            metrics.record(Fate.OTHER_CLUSTER);
            return null;
        }
        if (records.get(record.peerId()).isEmpty()) {
            metrics.receivedUnknown.increment();
        }
        if (!connected.test(record.peerId())
                && record.dialAddresses().stream().noneMatch(a -> a.isTcp() || a.isWebSocket())) {
            metrics.record(Fate.INVALID);
            return null;
        }
        return record;
    }

    /**
     * What became of a record this finder offered, as the peer manager found: {@code connected} (the caller keeps
     * the record) or {@code dial_failed}.
     */
    public void dialled(boolean connected) {
        metrics.record(connected ? Fate.CONNECTED : Fate.DIAL_FAILED);
    }

    /** Stops asking; a round under way is cancelled. Idempotent. */
    public void stop() {
        Disposable running = rounds;
        if (running != null) {
            running.dispose();
        }
    }

    @Override
    public void close() {
        stop();
    }
}
