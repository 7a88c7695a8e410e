package io.wakurelay.discovery.discv5;

import io.wakurelay.discovery.discv5.Discv5Metrics.RecordError;
import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.discovery.enr.EnrFormatException;
import io.wakurelay.discovery.enr.RelayShards;
import io.wakurelay.discovery.peers.Origin;
import io.wakurelay.discovery.peers.RecordSink;
import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.crypto.PrivateKey;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;

/**
 * discv5 as a finder (docs/discovery.md#discv5): the {@link Discv5Service} bound before the node's ENR is made (so
 * the record names the port it got), then nwaku's search loop ({@code waku_discv5.nim}): a random lookup, its records
 * filtered as nwaku's {@code shardingPredicate} filters them ({@link #wanted}: a {@code waku2} field and one of our
 * shards of our cluster; our cluster only when we relay no static shard), those with a TCP or WebSocket address and
 * not this node's offered to the {@link RecordSink} (the peer manager, which dials them with its backoff), then a
 * pause of {@link Discv5DiscoveryConfig#lookupInterval()}. It dials nothing itself.
 */
public final class Discv5Discovery implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Discv5Discovery.class);

    private final Discv5DiscoveryConfig config;
    private final Discv5Service service;
    private final Discv5Metrics metrics;
    private final AtomicReference<Enr> record;
    private volatile Disposable loop;

    private Discv5Discovery(Discv5DiscoveryConfig config, Discv5Service service, Discv5Metrics metrics,
            AtomicReference<Enr> record) {
        this.config = config;
        this.service = service;
        this.metrics = metrics;
        this.record = record;
    }

    /**
     * Binds the UDP socket on {@code listen} and {@link Discv5DiscoveryConfig#udpPort()}; the record it answers as is
     * given by {@link #announce}.
     *
     * @param listen the host's listen address; null: every address
     * @param key    the node key, secp256k1 (the "v4" identity)
     */
    public static Discv5Discovery bind(Discv5DiscoveryConfig config, InetAddress listen, PrivateKey key,
            Discv5Metrics metrics) {
        AtomicReference<Enr> record = new AtomicReference<>();
        Discv5Config service = Discv5Config.defaults(new InetSocketAddress(listen, config.udpPort()), List.of())
                .toBuilder().tableIpLimit(config.tableIpLimit()).bucketIpLimit(config.bucketIpLimit())
                .bitsPerHop(config.bitsPerHop()).enrAutoUpdate(config.enrAutoUpdate()).build();
        try {
            return new Discv5Discovery(config, Discv5Service.start(service, key.raw(), record::get, metrics), metrics,
                    record);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while binding discv5", e);
        } catch (Exception e) { // Netty rethrows the socket's BindException undeclared
            throw new IllegalStateException("cannot bind discv5 to UDP " + where(listen) + ":" + config.udpPort()
                    + ": " + e.getMessage(), e);
        }
    }

    private static String where(InetAddress listen) {
        return listen == null ? "*" : listen.getHostAddress();
    }

    /** The UDP port bound (the one the record names). */
    public int port() {
        return service.localAddress().getPort();
    }

    /**
     * Answers as {@code current} from now on; with {@code --discv5-enr-auto-update}, the address the nodes we ping
     * agree on goes through {@code onExternalAddress} (which signs and keeps the record) and is answered as.
     */
    public void announce(Enr current, Function<InetSocketAddress, Enr> onExternalAddress) {
        record.set(Objects.requireNonNull(current, "current"));
        service.onExternalAddress(address -> record.set(onExternalAddress.apply(address)));
    }

    /** Pings the bootstrap nodes and starts the search loop; what it finds goes to {@code sink}. */
    public void start(PeerId self, int clusterId, List<Integer> shards, RecordSink sink) {
        service.addNodes(config.bootstrap());
        log.atInfo().addKeyValue("bootstrapNodes", config.bootstrap().size())
                .addKeyValue("lookupInterval", String.valueOf(config.lookupInterval())).addKeyValue("cluster", clusterId)
                .addKeyValue("shards", List.copyOf(shards)).log("discv5: searching for peers of our cluster and shards");
        UnaryOperator<List<Enr>> ours = found -> found.stream().filter(r -> wanted(r, clusterId, shards, metrics))
                .filter(r -> !r.peerId().equals(self)).toList();
        loop = Mono.defer(() -> Mono.fromFuture(service.randomLookup())
                        .doOnNext(found -> offer(found, ours.apply(found), sink))
                        .onErrorResume(e -> {
                            log.atWarn().addKeyValue("reason", e.toString()).log("discv5: a lookup failed");
                            return Mono.empty();
                        })
                        .then(Mono.delay(config.lookupInterval())))
                .repeat()
                .subscribe(null, e -> log.error("discv5: the search loop stopped", e));
    }

    /** Records found elsewhere (DNS discovery) join the table as bootstrap nodes do. */
    public void addBootstrap(List<Enr> found) {
        service.addNodes(found);
    }

    private static void offer(List<Enr> found, List<Enr> wanted, RecordSink sink) {
        log.atDebug().addKeyValue("records", found.size()).addKeyValue("offered", wanted.size())
                .log("discv5: a lookup found records; those of our shards offered to the peer manager");
        sink.offer(wanted, Origin.DISCV5);
    }

    /** nwaku's shardingPredicate; a record that does not parse is counted (nwaku's {@code ParseFailure}). */
    static boolean wanted(Enr found, int clusterId, List<Integer> shards, Discv5Metrics metrics) {
        try {
            Optional<RelayShards> theirs = found.relayShards();
            if (found.dialAddresses().stream().noneMatch(a -> a.isTcp() || a.isWebSocket())) {
                metrics.recordError(RecordError.NO_ADDRESS); // a discv5-only node (a bootstrap node, say)
                return false;
            }
            if (shards.isEmpty()) {
                return theirs.isEmpty() || theirs.get().cluster() == clusterId;
            }
            if (theirs.isEmpty()) {
                metrics.recordError(RecordError.NO_SHARD_INFO);
                return false;
            }
            boolean served = found.waku2().map(c -> c.bits() != 0).orElse(false);
            if (!served || theirs.get().cluster() != clusterId
                    || shards.stream().noneMatch(theirs.get().shards()::contains)) {
                metrics.recordError(RecordError.OTHER_SHARDS);
                return false;
            }
            metrics.discoveredOn(theirs.get().shards());
            return true;
        } catch (EnrFormatException e) {
            metrics.recordError(RecordError.PARSE_FAILURE);
            return false;
        }
    }

    /** Stops the search loop (a lookup under way is cancelled); the service still answers. Idempotent. */
    public void stop() {
        Disposable running = loop;
        if (running != null) {
            running.dispose();
        }
    }

    /** Stops the loop and closes the socket. Idempotent. */
    @Override
    public void close() {
        stop();
        service.close();
    }
}
