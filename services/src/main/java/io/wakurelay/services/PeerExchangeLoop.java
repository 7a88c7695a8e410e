package io.wakurelay.services;

import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Asks one node for peers at start and then every {@link PeerExchangeClientConfig#interval()}, as nwaku's
 * {@code peerExchangeLoop} does for {@code --peer-exchange-node} when discv5 is off: each round is one
 * {@link PeerExchangeClient#discover}; a round that fails is logged and the next one comes at its time. Rounds never
 * overlap (a round that takes longer than the interval delays the next).
 */
public final class PeerExchangeLoop implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(PeerExchangeLoop.class);

    private final Disposable rounds;

    private PeerExchangeLoop(Disposable rounds) {
        this.rounds = rounds;
    }

    /** Starts asking {@code node} through {@code client}. */
    public static PeerExchangeLoop start(PeerExchangeClient client, Multiaddr node) {
        return start(client, node, connected -> { }, Schedulers.parallel());
    }

    /**
     * As {@link #start(PeerExchangeClient, Multiaddr)}, telling {@code onConnected} the records of each round's peers
     * then connected.
     */
    public static PeerExchangeLoop start(PeerExchangeClient client, Multiaddr node, Consumer<List<Enr>> onConnected) {
        return start(client, node, onConnected, Schedulers.parallel());
    }

    /**
     * As {@link #start(PeerExchangeClient, Multiaddr)}, without dialling: each round's records worth dialling
     * ({@link PeerExchangeClient#candidates}) go to {@code onFound} (the node's peer manager), which dials them.
     */
    public static PeerExchangeLoop offering(PeerExchangeClient client, Multiaddr node, Consumer<List<Enr>> onFound) {
        return every(client, node, Schedulers.parallel(), () -> client.candidates(node)
                .doOnNext(found -> log.info("peer exchange: {} answered {} records worth dialling", node, found.size()))
                .doOnNext(onFound));
    }

    static PeerExchangeLoop start(PeerExchangeClient client, Multiaddr node, Consumer<List<Enr>> onConnected,
                                  Scheduler timer) {
        return every(client, node, timer, () -> client.discover(node)
                .doOnNext(round -> log.info("peer exchange: {} answered {} records; connected to {} of their peers",
                        node, round.received(), round.connected().size()))
                .doOnNext(round -> onConnected.accept(round.connected())));
    }

    /** Runs {@code round} now and every interval of the client's, one at a time; a failed round is logged and skipped. */
    private static PeerExchangeLoop every(PeerExchangeClient client, Multiaddr node, Scheduler timer,
                                          Supplier<Mono<?>> round) {
        Objects.requireNonNull(node, "node");
        Duration interval = client.config().interval();
        log.info("peer exchange: asking {} for {} peers now and every {} s", node, client.config().numPeers(),
                interval.toSeconds());
        Disposable rounds = Flux.interval(Duration.ZERO, interval, timer)
                .onBackpressureDrop()
                .concatMap(i -> round.get()
                        .onErrorResume(e -> {
                            log.warn("peer exchange: asking {} failed: {}", node, e.getMessage());
                            return Mono.empty();
                        }), 1)
                .subscribe();
        return new PeerExchangeLoop(rounds);
    }

    /** Stops asking; a round under way is cancelled. Idempotent. */
    public Mono<Void> shutdown(Duration grace) {
        return Mono.fromRunnable(rounds::dispose);
    }

    @Override
    public void close() {
        rounds.dispose();
    }
}
