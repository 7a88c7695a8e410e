package io.wakurelay.node.peers;

import io.micrometer.core.instrument.MeterRegistry;
import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.discovery.peers.Origin;
import io.wakurelay.discovery.peers.RecordSink;
import io.wakurelay.node.config.PeerManagerConfig;
import io.wakurelay.node.peers.PeerManagerMetrics.Outcome;
import io.wakurelay.p2p.ConnectionListener;
import io.wakurelay.p2p.Host;
import io.wakurelay.p2p.PeerRecord;
import io.wakurelay.p2p.connection.Connection;
import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.relay.Relay;
import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * The one dialler of discovered peers, after nwaku's {@code peer_manager.nim} (docs/discovery.md#peer-manager):
 * discovery's {@link RecordSink}. DNS discovery, discv5 and the peer exchange node's loop {@link #offer} the records
 * they find; they are kept in a bounded {@link CandidateStore}. A connectivity loop (one thread) counts the connections ({@link PeerCensus}),
 * closes inbound relay and service peers beyond their targets ({@link ConnectionPruner}), and dials candidates
 * until the outbound relay target ({@link PeerTargets}) is met, at most {@code maxParallelDials} at once and never
 * past the host's free connection slots; a failed dial backs the peer off exponentially. The loop runs again after
 * nwaku's dynamic pause (shorter the further the node is from its targets), and at once when an offer adds a
 * candidate, a dial ends, a peer is identified (nwaku checks the inbound target as a peer joins) or one leaves.
 * Static peers are not its business: the host dials and redials them. What it dials of a record is decided by its
 * {@link DialAddresses}: private and loopback addresses only when this node's are such or {@code --dial-private-peers}
 * allows them (go-libp2p's address filters), DNS names resolved without blocking ({@link NettyNameResolver}), and
 * judged the same way.
 */
public final class PeerManager implements RecordSink, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(PeerManager.class);

    /**
     * Told what became of the candidates (the node hands it to discovery, which keeps the records of connected peers
     * for peer exchange, and notes how each was found for the admin API).
     */
    public interface Listener {
        /** {@code record}'s peer is connected: dialled now, or already connected when offered. */
        void connected(Enr record, Origin origin);

        /** A dial of {@code record}'s peer failed. */
        default void failed(Enr record, Origin origin) {
        }
    }

    private final PeerManagerConfig config;
    private final int maxConnections;
    private final Host host;
    private final Relay relay;
    private final Listener listener;
    private final PeerTargets targets;
    private final CandidateStore store;
    private final PeerManagerMetrics metrics;
    private final ConnectedSince since = new ConnectedSince();
    /** An identified peer may push a kind over its target, a lost one leave the outbound target short: look now. */
    private final ConnectionListener changes = new ConnectionListener() {
        @Override
        public void onIdentified(Connection connection, PeerRecord peer) {
            wake();
        }

        @Override
        public void onDisconnected(Connection connection) {
            pruner.gone(connection);
            wake();
        }
    };
    private final ConnectionPruner pruner;
    private final DialAddresses dialAddresses;
    private final AutoCloseable ownedResolver;
    private final ScheduledExecutorService loop;
    private final AtomicInteger dialling = new AtomicInteger();
    private final AtomicBoolean wakePending = new AtomicBoolean();
    private volatile ScheduledFuture<?> next;
    private volatile boolean closed;

    private PeerManager(PeerManagerConfig config, int maxConnections, Host host, Relay relay, MeterRegistry registry,
            Listener listener, NameResolver resolver) {
        this.config = config;
        this.maxConnections = maxConnections;
        this.host = host;
        this.relay = relay;
        this.listener = listener;
        this.targets = PeerTargets.of(config.ratio(), maxConnections);
        this.store = new CandidateStore(config.storeCapacity(maxConnections), config);
        this.metrics = new PeerManagerMetrics(registry, store, targets);
        this.pruner = new ConnectionPruner(targets, metrics);
        NameResolver names = resolver != null ? resolver : new NettyNameResolver(config.dialTimeout());
        this.ownedResolver = resolver == null ? (AutoCloseable) names : null;
        this.dialAddresses = new DialAddresses(DialPolicy.of(host.listenAddresses(), config.dialPrivatePeers()), names,
                config.dialTimeout(), metrics::addressRefused);
        this.loop = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "peer-manager");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Starts the connectivity loop.
     *
     * @param maxConnections the host's {@code --max-connections}, which the targets split
     * @param relay          null on a node without relay
     */
    public static PeerManager start(PeerManagerConfig config, int maxConnections, Host host, Relay relay,
            MeterRegistry registry, Listener listener) {
        return start(config, maxConnections, host, relay, registry, listener, null);
    }

    /** As above, with DNS names resolved by {@code resolver} (null: the system's name servers, without blocking). */
    static PeerManager start(PeerManagerConfig config, int maxConnections, Host host, Relay relay,
            MeterRegistry registry, Listener listener, NameResolver resolver) {
        PeerManager manager = new PeerManager(Objects.requireNonNull(config, "config"), maxConnections,
                Objects.requireNonNull(host, "host"), relay, Objects.requireNonNull(registry, "registry"),
                Objects.requireNonNull(listener, "listener"), resolver);
        if (manager.targets.relay() < 12) { // nwaku refuses to start below gossipsub's D_high (12)
            log.atWarn().addKeyValue("relayPeers", manager.targets.relay()).addKeyValue("maxConnections", maxConnections)
                    .addKeyValue("relayServiceRatio", config.ratio().format())
                    .log("peer manager: the relay peers of --max-connections at --relay-service-ratio are below "
                            + "gossipsub's D_high (12): the node may end up isolated");
        }
        host.addListener(manager.since);
        host.addListener(manager.changes);
        host.connections().forEach(manager.since::onConnected);
        log.atInfo().addKeyValue("inboundRelayPeers", manager.targets.inRelay())
                .addKeyValue("outboundRelayPeers", manager.targets.outRelay())
                .addKeyValue("servicePeers", manager.targets.service()).addKeyValue("candidates", manager.store.capacity())
                .addKeyValue("dials", describe(manager.dialAddresses.policy())).log("peer manager: targets");
        manager.wake();
        return manager;
    }

    private static String describe(DialPolicy policy) {
        String what = policy.allowPrivate() ? "public, private and loopback addresses (--dial-private-peers)"
                : switch (policy.own()) {
                    case LOOPBACK -> "public, private and loopback addresses (this node's are loopback)";
                    case PRIVATE -> "public and private addresses (this node's are private)";
                    default -> "public addresses only (this node's are public; --dial-private-peers for more)";
                };
        return what;
    }

    /** Takes what a finder found; the records of another cluster must have been dropped by the finder. */
    @Override
    public void offer(Collection<Enr> records, Origin origin) {
        Set<PeerId> statics = staticPeers();
        boolean added = false;
        for (Enr record : records) {
            PeerId peer = record.peerId();
            if (peer.equals(host.peerId()) || statics.contains(peer)) {
                continue;
            }
            CandidateStore.Offer outcome = store.offer(record, dialAddresses.literal(record.dialAddresses()), origin,
                    this::connected);
            metrics.offer(outcome);
            added |= outcome == CandidateStore.Offer.ADDED;
            if (outcome != CandidateStore.Offer.NO_ADDRESS && connected(peer)) {
                listener.connected(record, origin);
            }
        }
        if (added) {
            wake();
        }
    }

    /** The split of {@code --max-connections}. */
    public PeerTargets targets() {
        return targets;
    }

    /** Every candidate kept, connected or not. */
    public List<CandidateView> candidates() {
        return store.views();
    }

    /** Runs a round of the loop soon (coalesced: one pending at a time). */
    void wake() {
        if (!closed && wakePending.compareAndSet(false, true)) {
            try {
                loop.execute(() -> {
                    wakePending.set(false);
                    round();
                });
            } catch (java.util.concurrent.RejectedExecutionException e) {
                wakePending.set(false); // shut down meanwhile
            }
        }
    }

    /** One round of nwaku's {@code connectToRelayPeers}, on the loop's thread. */
    private void round() {
        if (closed) {
            return;
        }
        try {
            PeerCensus census = PeerCensus.of(host, relay, since, pruner::closing);
            metrics.census(census);
            pruner.prune(census);
            int inFlight = dialling.get();
            int wanted = targets.outRelay() - census.outRelay() - inFlight;
            int slots = maxConnections - census.total() - inFlight;
            int n = Math.min(wanted, Math.min(config.maxParallelDials() - inFlight, slots));
            Set<PeerId> statics = staticPeers();
            for (Candidate c : store.takeForDial(n, System.nanoTime(), p -> connected(p) || statics.contains(p))) {
                dial(c);
            }
            schedule(pause(census));
        } catch (RuntimeException e) { // a bug in one round must not end the loop
            log.error("peer manager: a round failed", e);
            schedule(config.connectivityInterval());
        }
    }

    /** nwaku's dynamic interval: the loop's interval times how close the node is to both targets, at least 1 s. */
    private Duration pause(PeerCensus census) {
        double excessIn = Math.max(census.inRelay() - targets.inRelay(), 0);
        double inFactor = targets.inRelay() == 0 ? 1 : 1 - Math.min(excessIn / targets.inRelay(), 1);
        double outFactor = targets.outRelay() == 0 ? 1 : Math.min((double) census.outRelay() / targets.outRelay(), 1);
        Duration pause = Duration.ofMillis((long) (config.connectivityInterval().toMillis()
                * Math.min(inFactor, outFactor)));
        return pause.compareTo(PeerManagerConfig.MIN_ROUND_PAUSE) < 0 ? PeerManagerConfig.MIN_ROUND_PAUSE : pause;
    }

    private void schedule(Duration pause) {
        ScheduledFuture<?> previous = next;
        if (previous != null) {
            previous.cancel(false);
        }
        if (!closed) {
            try {
                next = loop.schedule(this::round, pause.toMillis(), TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.RejectedExecutionException e) {
                // shut down meanwhile
            }
        }
    }

    private void dial(Candidate c) {
        dialling.incrementAndGet();
        Enr record = c.record;
        Origin origin = c.origin;
        List<Multiaddr> addresses = c.addresses;
        dialAddresses.resolve(addresses)
                .concatMap(address -> host.dial(address).onErrorResume(e -> {
                    log.atDebug().addKeyValue("address", String.valueOf(address)).addKeyValue("origin", origin.label())
                            .addKeyValue("reason", e.toString()).log("peer manager: cannot dial");
                    return Mono.empty();
                }), 1)
                .next()
                .map(connection -> Outcome.SUCCESSFUL)
                .timeout(config.dialTimeout())
                .onErrorResume(TimeoutException.class, e -> Mono.just(Outcome.TIMED_OUT))
                .defaultIfEmpty(Outcome.FAILED)
                .onErrorReturn(Outcome.FAILED)
                .subscribe(outcome -> dialled(c, record, origin, outcome));
    }

    private void dialled(Candidate c, Enr record, Origin origin, Outcome outcome) {
        boolean ok = outcome == Outcome.SUCCESSFUL;
        store.dialled(c, ok, System.nanoTime());
        metrics.dial(outcome, origin);
        dialling.decrementAndGet();
        if (ok) {
            listener.connected(record, origin);
        } else {
            listener.failed(record, origin);
        }
        wake();
    }

    private boolean connected(PeerId peer) {
        return host.connection(peer).isPresent();
    }

    private Set<PeerId> staticPeers() {
        Set<PeerId> ids = new HashSet<>();
        for (Multiaddr a : host.staticPeers()) {
            a.peerId().ifPresent(ids::add);
        }
        return ids;
    }

    /** The store, for tests in this package. */
    CandidateStore store() {
        return store;
    }

    public Mono<Void> shutdown(Duration grace) {
        return Mono.fromRunnable(this::close);
    }

    /** Stops the loop (dials under way finish on their own) and removes the meters. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        loop.shutdownNow();
        if (ownedResolver != null) {
            try {
                ownedResolver.close();
            } catch (Exception e) {
                log.atDebug().addKeyValue("reason", e.toString()).log("peer manager: closing the name resolver failed");
            }
        }
        host.removeListener(since);
        host.removeListener(changes);
        metrics.close();
    }
}
