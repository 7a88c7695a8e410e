package io.wakurelay.services;

import io.micrometer.core.instrument.MeterRegistry;
import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.discovery.enr.EnrFormatException;
import io.wakurelay.discovery.peers.PeerRecords;
import io.wakurelay.p2p.connection.Connection;
import io.wakurelay.p2p.Host;
import io.wakurelay.p2p.mss.NegotiationException;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.services.PeerExchangeClientMetrics.Fate;
import io.wakurelay.services.proto.PeerExchangeResponse;
import io.wakurelay.services.proto.PeerInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Asks other nodes for peers over {@value PeerExchangeConfig#PROTOCOL_ID} ({@link #request}), and connects to what
 * they answer ({@link #discover}): each record is decoded and verified (discovery's {@link Enr}), records of another
 * cluster or of this node are dropped, the peer is dialled through the host (so within its connection limits: a dial
 * with no slot free fails and is counted), and the records of the peers that are then connected are kept in the
 * {@link PeerRecords} the server answers from. Nothing is kept of a peer that could not be reached.
 */
public final class PeerExchangeClient implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(PeerExchangeClient.class);
    /** Peers of one answer dialled at once. */
    private static final int DIALS_AT_ONCE = 4;

    private final PeerExchangeClientConfig config;
    private final Host host;
    private final PeerRecords records;
    private final int clusterId;
    private final Meters meters;
    private final PeerExchangeClientMetrics metrics;
    private volatile boolean closed;

    /** What one {@link #discover} round found: the records kept, of peers connected now. */
    public record Round(int received, List<Enr> connected) {
    }

    private PeerExchangeClient(PeerExchangeClientConfig config, Host host, PeerRecords records, int clusterId,
            MeterRegistry registry) {
        this.config = config;
        this.host = host;
        this.records = records;
        this.clusterId = clusterId;
        this.meters = new Meters(registry);
        this.metrics = new PeerExchangeClientMetrics(meters, records);
    }

    /**
     * @param records   where the records of the peers found and connected are kept (the server's source)
     * @param clusterId records naming another cluster are dropped
     * @param registry  where the client registers its meters (docs/metrics.md); removed at shutdown
     */
    public static PeerExchangeClient start(PeerExchangeClientConfig config, Host host, PeerRecords records,
            int clusterId, MeterRegistry registry) {
        return new PeerExchangeClient(Objects.requireNonNull(config, "config"), Objects.requireNonNull(host, "host"),
                Objects.requireNonNull(records, "records"), clusterId, Objects.requireNonNull(registry, "registry"));
    }

    public PeerExchangeClientConfig config() {
        return config;
    }

    /**
     * Asks the node at {@code peer} (a multiaddr ending in {@code /p2p/<peer id>}) for up to {@code numPeers}
     * records; returns the raw records of the answer (at most {@code numPeers}), undecoded. Errors with
     * {@link PeerExchangeException}.
     */
    public Mono<List<byte[]>> request(Multiaddr peer, int numPeers) {
        Objects.requireNonNull(peer, "peer");
        return Mono.defer(() -> {
            if (closed) {
                return Mono.error(new PeerExchangeException(PeerExchangeException.Kind.DIAL_FAILURE,
                        "the peer exchange client is shut down"));
            }
            return host.dial(peer)
                    .onErrorMap(e -> !(e instanceof PeerExchangeException), e -> new PeerExchangeException(
                            PeerExchangeException.Kind.DIAL_FAILURE, 0, "cannot reach " + peer + ": "
                            + Failures.reason(e), e))
                    .flatMap(connection -> exchange(connection, peer, numPeers))
                    .timeout(config.timeout(), Mono.error(() -> new PeerExchangeException(PeerExchangeException.Kind.TIMEOUT,
                            "no peer exchange answer from " + peer + " within " + config.timeout().toMillis() + " ms")))
                    .map(response -> {
                        List<byte[]> out = new ArrayList<>();
                        for (PeerInfo info : response.getPeerInfosList()) {
                            if (out.size() == numPeers) {
                                break; // more than asked for: the rest is not ours to use
                            }
                            out.add(info.getEnr().toByteArray());
                        }
                        return out;
                    })
                    .doOnError(PeerExchangeException.class, e -> metrics.error(e.kind()));
        });
    }

    private Mono<PeerExchangeResponse> exchange(Connection connection, Multiaddr peer, int numPeers) {
        return Mono.create(sink -> {
            PeerExchangeClientExchange exchange = new PeerExchangeClientExchange(numPeers, config.maxResponseBytes(), sink);
            sink.onCancel(exchange::cancel);
            connection.openStream(PeerExchangeConfig.PROTOCOL_ID, exchange).subscribe(null, e -> sink.error(
                    new PeerExchangeException(PeerExchangeException.Kind.DIAL_FAILURE, 0,
                            e instanceof NegotiationException.NotSupported
                                    ? peer + " does not serve " + PeerExchangeConfig.PROTOCOL_ID
                                    : "cannot open a peer exchange stream to " + peer + ": " + Failures.reason(e), e)));
        });
    }

    /**
     * Asks {@code peer} for {@link PeerExchangeClientConfig#numPeers()} records and connects to the peers they name
     * (see the class comment). Errors with {@link PeerExchangeException} when the request fails; a record that does
     * not lead to a connection is counted, not an error.
     */
    public Mono<Round> discover(Multiaddr peer) {
        return request(peer, config.numPeers()).flatMap(raw -> Flux.fromIterable(raw)
                .flatMap(this::connect, DIALS_AT_ONCE)
                .collectList()
                .map(connected -> new Round(raw.size(), connected)));
    }

    /**
     * Asks {@code peer} for {@link PeerExchangeClientConfig#numPeers()} records and returns those worth dialling,
     * without dialling them (the node's peer manager does): records that do not decode, name no TCP or WebSocket
     * address, are this node's or of another cluster are dropped and counted. Report each dial with {@link #dialled}.
     */
    public Mono<List<Enr>> candidates(Multiaddr peer) {
        return request(peer, config.numPeers()).map(raw -> {
            List<Enr> out = new ArrayList<>();
            for (byte[] r : raw) {
                Enr record = accept(r);
                if (record != null) {
                    out.add(record);
                }
            }
            return out;
        });
    }

    /**
     * What became of a record {@link #candidates} returned, as the dialler found: counted {@code connected} (its
     * record then kept, as {@link #discover} keeps it) or {@code dial_failed}.
     */
    public void dialled(Enr record, boolean connected) {
        if (connected) {
            kept(record);
        } else {
            metrics.record(Fate.DIAL_FAILED);
        }
    }

    /** The record, once its peer is connected; empty (and counted) when it is dropped or cannot be reached. */
    private Mono<Enr> connect(byte[] raw) {
        Enr record = accept(raw);
        if (record == null) {
            return Mono.empty();
        }
        if (host.connection(record.peerId()).isPresent()) {
            return Mono.just(kept(record));
        }
        List<Multiaddr> addresses = record.dialAddresses().stream().filter(a -> a.isTcp() || a.isWebSocket()).toList();
        return Flux.fromIterable(addresses)
                .concatMap(address -> host.dial(address).onErrorResume(e -> {
                    log.debug("peer exchange: cannot dial {}: {}", address, Failures.reason(e));
                    return Mono.empty();
                }), 1)
                .next()
                .timeout(config.timeout(), Mono.empty())
                .map(connection -> kept(record))
                .switchIfEmpty(Mono.defer(() -> dropped(Fate.DIAL_FAILED)));
    }

    /** The decoded record when it is worth dialling; null (and counted) when it is dropped. */
    private Enr accept(byte[] raw) {
        metrics.received.increment();
        Enr record;
        try {
            record = Enr.decode(raw);
        } catch (EnrFormatException e) {
            log.debug("a peer exchange record does not decode: {}", e.getMessage());
            metrics.record(Fate.INVALID);
            return null;
        }
        if (record.peerId().equals(host.peerId())) {
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
        if (host.connection(record.peerId()).isEmpty()
                && record.dialAddresses().stream().noneMatch(a -> a.isTcp() || a.isWebSocket())) {
            metrics.record(Fate.INVALID);
            return null;
        }
        return record;
    }

    private Enr kept(Enr record) {
        records.offer(record);
        metrics.record(Fate.CONNECTED);
        return record;
    }

    private Mono<Enr> dropped(Fate fate) {
        metrics.record(fate);
        return Mono.empty();
    }

    /** Refuses new requests and removes the meters. Idempotent. */
    public Mono<Void> shutdown(Duration grace) {
        Objects.requireNonNull(grace, "grace");
        return Mono.fromRunnable(() -> {
            if (!closed) {
                closed = true;
                meters.removeAll();
            }
        });
    }

    @Override
    public void close() {
        shutdown(Duration.ZERO).block();
    }
}
