package io.wakurelay.services.peerexchange;

import io.wakurelay.services.Meters;
import io.wakurelay.services.Failures;

import io.micrometer.core.instrument.MeterRegistry;
import io.wakurelay.p2p.connection.Connection;
import io.wakurelay.p2p.Host;
import io.wakurelay.p2p.mss.NegotiationException;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.services.proto.PeerExchangeResponse;
import io.wakurelay.services.proto.PeerInfo;
import reactor.core.publisher.Mono;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Asks other nodes for peers over {@value PeerExchangeConfig#PROTOCOL_ID} ({@link #request}): one request, one
 * bounded answer, its records returned undecoded. It dials nothing but the node asked: what the records are worth and
 * who dials their peers is discovery's business (its peer exchange finder offers them to the node's peer manager).
 */
public final class PeerExchangeClient implements AutoCloseable {
    private final PeerExchangeClientConfig config;
    private final Host host;
    private final Meters meters;
    private final PeerExchangeClientMetrics metrics;
    private volatile boolean closed;

    private PeerExchangeClient(PeerExchangeClientConfig config, Host host, MeterRegistry registry) {
        this.config = config;
        this.host = host;
        this.meters = new Meters(registry);
        this.metrics = new PeerExchangeClientMetrics(meters);
    }

    /** @param registry where the client registers its meters (docs/metrics.md); removed at shutdown */
    public static PeerExchangeClient start(PeerExchangeClientConfig config, Host host, MeterRegistry registry) {
        return new PeerExchangeClient(Objects.requireNonNull(config, "config"), Objects.requireNonNull(host, "host"),
                Objects.requireNonNull(registry, "registry"));
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
