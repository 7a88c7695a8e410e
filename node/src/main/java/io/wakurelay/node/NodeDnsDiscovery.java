package io.wakurelay.node;

import io.wakurelay.discovery.dns.DnsDiscoveryConfig;
import io.wakurelay.discovery.dns.DnsDiscoveryMetrics;
import io.wakurelay.discovery.dns.DnsTxtResolver;
import io.wakurelay.discovery.dns.EnrTreeException;
import io.wakurelay.discovery.dns.EnrTreeSync;
import io.wakurelay.discovery.dns.EnrTreeUrl;
import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.discovery.peers.PeerRecords;
import io.wakurelay.node.peers.Origin;
import io.wakurelay.node.peers.PeerManager;
import io.wakurelay.p2p.Host;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * DNS discovery in the node (docs/discovery.md): reads the trees at start and offers the records of our cluster they
 * name to the {@link PeerManager}, which dials them (and keeps the records of the peers then connected in the record
 * cache peer exchange serves from); reads the trees again
 * {@link DnsDiscoveryConfig#retryInterval()} after a sync that found no peer (nwaku's retry loop) and
 * {@link DnsDiscoveryConfig#syncInterval()} after one that did. Syncs never overlap.
 */
final class NodeDnsDiscovery implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(NodeDnsDiscovery.class);

    private final DnsDiscoveryConfig config;
    private final Host host;
    private final PeerManager manager;
    private final int clusterId;
    private final DnsTxtResolver resolver;
    private final DnsDiscoveryMetrics metrics;
    private final EnrTreeSync sync;
    private volatile Disposable loop;
    private volatile java.util.function.Consumer<List<Enr>> onFound = found -> { };

    private NodeDnsDiscovery(DnsDiscoveryConfig config, Host host, PeerManager manager, int clusterId,
            DnsDiscoveryMetrics metrics) {
        this.config = config;
        this.host = host;
        this.manager = manager;
        this.clusterId = clusterId;
        this.resolver = new DnsTxtResolver(config.nameServers(), config.queryTimeout());
        this.metrics = metrics;
        this.sync = new EnrTreeSync(resolver, config.limits(), metrics);
    }

    /** @param metrics counted into; owned by the caller (registered whether DNS discovery is on or not) */
    static NodeDnsDiscovery create(DnsDiscoveryConfig config, Host host, PeerManager manager, int clusterId,
            DnsDiscoveryMetrics metrics) {
        return new NodeDnsDiscovery(config, host, manager, clusterId, metrics);
    }

    /** Also hands every read's records to {@code listener} (discv5's bootstrap nodes). */
    void onFound(java.util.function.Consumer<List<Enr>> listener) {
        onFound = listener;
    }

    /** Starts syncing now. */
    void start() {
        log.info("DNS discovery: reading {} through {}", config.urls(),
                DnsDiscoveryConfig.format(config.nameServers()));
        loop = Mono.defer(() -> round().flatMap(found -> Mono.delay(found > 0
                        ? config.syncInterval() : config.retryInterval())))
                .repeat()
                .subscribe(null, e -> log.error("DNS discovery stopped", e));
    }

    /** One sync of every tree, its records offered to the peer manager: the number of peers the trees named. */
    Mono<Integer> round() {
        return Mono.fromCallable(this::readTrees)
                .subscribeOn(Schedulers.boundedElastic())
                .map(found -> {
                    List<Enr> ours = found.stream().filter(r -> !r.peerId().equals(host.peerId())
                            && PeerRecords.ofCluster(r, clusterId)).toList();
                    log.info("DNS discovery: the trees name {} peers, {} of our cluster offered to the peer manager",
                            found.size(), ours.size());
                    manager.offer(ours, Origin.DNS);
                    return found.size();
                })
                .onErrorResume(e -> { // a bug in one round must not end the loop: log it, retry at its time
                    log.error("DNS discovery: a round failed", e);
                    return Mono.just(0);
                });
    }

    private List<Enr> readTrees() {
        Map<String, Enr> found = new LinkedHashMap<>();
        for (EnrTreeUrl url : config.urls()) {
            try {
                EnrTreeSync.Tree tree = sync.sync(url);
                log.info("DNS discovery: {} (seq {}) names {} peers", url, tree.seq(), tree.records().size());
                tree.records().forEach(r -> found.putIfAbsent(r.peerId().toString(), r));
            } catch (EnrTreeException e) {
                log.warn("DNS discovery: cannot read {}: {}", url, e.getMessage());
            }
        }
        List<Enr> records = List.copyOf(found.values());
        if (!records.isEmpty()) {
            onFound.accept(records);
        }
        return records;
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
        resolver.close();
    }
}
