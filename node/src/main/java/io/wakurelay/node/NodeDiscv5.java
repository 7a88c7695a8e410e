package io.wakurelay.node;

import io.wakurelay.discovery.discv5.Discv5Config;
import io.wakurelay.discovery.discv5.Discv5Metrics;
import io.wakurelay.discovery.discv5.Discv5Metrics.RecordError;
import io.wakurelay.discovery.discv5.Discv5Service;
import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.discovery.enr.EnrFormatException;
import io.wakurelay.discovery.enr.RelayShards;
import io.wakurelay.node.config.Discv5Settings;
import io.wakurelay.node.config.NodeConfig;
import io.wakurelay.node.peers.Origin;
import io.wakurelay.node.peers.PeerManager;
import io.wakurelay.p2p.crypto.KeyType;
import io.wakurelay.p2p.Host;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;

/**
 * discv5 in the node (docs/discovery.md#discv5): the UDP service, bound before the node's ENR is made (so the record
 * names the port it got), then the search loop of nwaku's {@code waku_discv5.nim}: a random lookup, the records found
 * filtered by cluster and shards as nwaku's {@code shardingPredicate} filters them (a {@code waku2} field and one of
 * our shards of our cluster; our cluster only when we relay no static shard), those with a TCP or WebSocket address
 * dialled through the host (at most {@value #DIALS_AT_ONCE} at once, so within {@code --max-connections}), the record
 * of each peer then connected kept in the record cache peer exchange serves from; then a pause of
 * {@link Discv5Settings#lookupInterval()}. A peer dialled is not dialled again for {@link #REDIAL_AFTER} (at most
 * {@value #TRIED_CAPACITY} remembered).
 */
final class NodeDiscv5 implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(NodeDiscv5.class);

    private final Discv5Settings settings;
    private final Discv5Service service;
    private final Discv5Metrics metrics;
    private final AtomicReference<Enr> record;
    private volatile Disposable loop;

    private NodeDiscv5(Discv5Settings settings, Discv5Service service, Discv5Metrics metrics,
            AtomicReference<Enr> record) {
        this.settings = settings;
        this.service = service;
        this.metrics = metrics;
        this.record = record;
    }

    /**
     * discv5's meters (registered in every node, zero while it is off, as DNS discovery's; the per-shard ones for
     * {@code shards}, the node's own) and, when it is on and the node key can sign a record, the bound service; null
     * otherwise.
     */
    static NodeDiscv5 bindIfEnabled(Discv5Settings settings, NodeConfig config, Host host,
            io.micrometer.core.instrument.MeterRegistry registry, StartedComponents components, List<Integer> shards) {
        Discv5Metrics metrics = components.add("discv5 metrics", new Discv5Metrics(registry));
        metrics.shards(shards);
        if (!settings.enabled()) {
            return null;
        }
        if (host.identity().type() != KeyType.SECP256K1) {
            log.warn("discv5 is off: its records (the \"v4\" identity) need a secp256k1 node key, not {}",
                    host.identity().type());
            return null;
        }
        NodeDiscv5 discv5 = bind(settings, config.host().listenAddress().getAddress(), host, metrics);
        return components.add("discv5", discv5, discv5::shutdown, discv5);
    }

    /** Starts the search loop once the node's record exists, and takes DNS discovery's finds as bootstrap nodes. */
    static void startIfBound(NodeDiscv5 discv5, NodeRecord enr, Host host, NodePeerExchange peerExchange,
            int clusterId, List<Integer> shards) {
        if (discv5 == null || enr == null) {
            return;
        }
        // --discv5-enr-auto-update: the address the nodes we ping agree on goes into the record (and its file)
        discv5.service.onExternalAddress(address -> discv5.record.set(enr.withExternalAddress(address)));
        discv5.start(enr.current(), host, peerExchange.manager(), clusterId, shards);
        peerExchange.onDnsFinds(discv5::addBootstrap);
    }

    /** Binds the UDP socket on the host's listen address; the node's record is given by {@link #start}. */
    static NodeDiscv5 bind(Discv5Settings settings, InetAddress listen, Host host, Discv5Metrics metrics) {
        AtomicReference<Enr> record = new AtomicReference<>();
        Discv5Config config = Discv5Config.defaults(new InetSocketAddress(listen, settings.udpPort()), List.of())
                .toBuilder().tableIpLimit(settings.tableIpLimit()).bucketIpLimit(settings.bucketIpLimit())
                .bitsPerHop(settings.bitsPerHop()).enrAutoUpdate(settings.enrAutoUpdate()).build();
        try {
            return new NodeDiscv5(settings, Discv5Service.start(config, host.identity().raw(), record::get, metrics),
                    metrics, record);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while binding discv5", e);
        } catch (RuntimeException e) {
            throw new IllegalStateException("cannot bind discv5 to UDP " + listen.getHostAddress() + ":"
                    + settings.udpPort() + ": " + e.getMessage(), e);
        }
    }

    int port() {
        return service.localAddress().getPort();
    }

    /** Starts answering as {@code enr}, pings the bootstrap nodes and starts the search loop. */
    void start(Enr enr, Host host, PeerManager manager, int clusterId, List<Integer> shards) {
        record.set(enr);
        service.addNodes(settings.bootstrap());
        log.info("discv5: {} bootstrap nodes; searching every {} for peers of cluster {} shards {}",
                settings.bootstrap().size(), settings.lookupInterval(), clusterId, shards);
        loop = Mono.defer(() -> Mono.fromFuture(service.randomLookup())
                        .doOnNext(found -> offer(found, host, manager, clusterId, shards))
                        .onErrorResume(e -> {
                            log.warn("discv5: a lookup failed: {}", e.toString());
                            return Mono.empty();
                        })
                        .then(Mono.delay(settings.lookupInterval())))
                .repeat()
                .subscribe(null, e -> log.error("discv5: the search loop stopped", e));
    }

    /** Records found elsewhere (DNS discovery) join the table as bootstrap nodes do. */
    void addBootstrap(List<Enr> found) {
        service.addNodes(found);
    }

    private void offer(List<Enr> found, Host host, PeerManager manager, int clusterId, List<Integer> shards) {
        List<Enr> wanted = found.stream().filter(r -> wanted(r, clusterId, shards))
                .filter(r -> !r.peerId().equals(host.peerId())).toList();
        log.debug("discv5: a lookup found {} records, {} of our shards offered to the peer manager", found.size(),
                wanted.size());
        manager.offer(wanted, Origin.DISCV5);
    }

    /** nwaku's shardingPredicate; a record that does not parse is counted (nwaku's {@code ParseFailure}). */
    boolean wanted(Enr record, int clusterId, List<Integer> shards) {
        try {
            Optional<RelayShards> theirs = record.relayShards();
            if (record.dialAddresses().stream().noneMatch(a -> a.isTcp() || a.isWebSocket())) {
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
            boolean served = record.waku2().map(c -> c.bits() != 0).orElse(false);
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

    Mono<Void> shutdown(Duration grace) {
        return Mono.fromRunnable(this::close);
    }

    @Override
    public void close() {
        Disposable running = loop;
        if (running != null) {
            running.dispose();
        }
        service.close();
    }
}
