package io.wakurelay.discovery.dns;

import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.discovery.peers.Origin;
import io.wakurelay.discovery.peers.PeerRecords;
import io.wakurelay.discovery.peers.RecordSink;
import io.wakurelay.p2p.crypto.PeerId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * DNS discovery as a finder (docs/discovery.md#dns-discovery-eip-1459): reads the trees at start and offers the
 * records of our cluster they name (this node's own left out) to the {@link RecordSink} (the peer manager, which dials
 * them); reads the trees again {@link DnsDiscoveryConfig#retryInterval()} after a sync that found no peer (nwaku's
 * retry loop) and {@link DnsDiscoveryConfig#syncInterval()} after one that did. Syncs never overlap; they run on
 * Reactor's {@code boundedElastic} threads, since {@link EnrTreeSync} waits for each TXT answer.
 */
public final class DnsDiscovery implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(DnsDiscovery.class);

    private final DnsDiscoveryConfig config;
    private final PeerId self;
    private final int clusterId;
    private final DnsTxtResolver resolver;
    private final EnrTreeSync sync;
    private volatile Disposable loop;
    private volatile Consumer<List<Enr>> onFound = found -> { };

    private DnsDiscovery(DnsDiscoveryConfig config, PeerId self, int clusterId, DnsDiscoveryMetrics metrics) {
        this.config = config;
        this.self = self;
        this.clusterId = clusterId;
        this.resolver = new DnsTxtResolver(config.nameServers(), config.queryTimeout());
        this.sync = new EnrTreeSync(resolver, config.limits(), metrics);
    }

    /**
     * @param self    this node, whose own record is not offered
     * @param metrics counted into; owned by the caller (registered whether DNS discovery is on or not)
     */
    public static DnsDiscovery create(DnsDiscoveryConfig config, PeerId self, int clusterId,
            DnsDiscoveryMetrics metrics) {
        return new DnsDiscovery(Objects.requireNonNull(config, "config"), Objects.requireNonNull(self, "self"),
                clusterId, Objects.requireNonNull(metrics, "metrics"));
    }

    /** Also hands every read's records to {@code listener} (discv5's bootstrap nodes). */
    public void onFound(Consumer<List<Enr>> listener) {
        onFound = listener;
    }

    /** Starts syncing now; each sync's records of our cluster go to {@code sink}. */
    public void start(RecordSink sink) {
        log.atInfo().addKeyValue("urls", config.urls().stream().map(String::valueOf).toList())
                .addKeyValue("nameServers", DnsDiscoveryConfig.format(config.nameServers())).log("DNS discovery: reading the trees");
        loop = Mono.defer(() -> round(sink).flatMap(found -> Mono.delay(found > 0
                        ? config.syncInterval() : config.retryInterval())))
                .repeat()
                .subscribe(null, e -> log.error("DNS discovery stopped", e));
    }

    /** One sync of every tree, its records offered to {@code sink}: the number of peers the trees named. */
    Mono<Integer> round(RecordSink sink) {
        return Mono.fromCallable(this::readTrees)
                .subscribeOn(Schedulers.boundedElastic())
                .map(found -> {
                    List<Enr> ours = found.stream().filter(r -> !r.peerId().equals(self)
                            && PeerRecords.ofCluster(r, clusterId)).toList();
                    log.atInfo().addKeyValue("peers", found.size()).addKeyValue("offered", ours.size())
                            .log("DNS discovery: the trees name peers; those of our cluster offered to the peer manager");
                    sink.offer(ours, Origin.DNS);
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
                log.atInfo().addKeyValue("url", String.valueOf(url)).addKeyValue("seq", tree.seq())
                        .addKeyValue("peers", tree.records().size()).log("DNS discovery: a tree read");
                tree.records().forEach(r -> found.putIfAbsent(r.peerId().toString(), r));
            } catch (EnrTreeException e) {
                log.atWarn().addKeyValue("url", String.valueOf(url)).addKeyValue("reason", e.getMessage())
                        .log("DNS discovery: cannot read a tree");
            }
        }
        List<Enr> records = List.copyOf(found.values());
        if (!records.isEmpty()) {
            onFound.accept(records);
        }
        return records;
    }

    /** Stops syncing (a sync under way is cancelled: its records are not offered). Idempotent. */
    public void stop() {
        Disposable running = loop;
        if (running != null) {
            running.dispose();
        }
    }

    /** Stops syncing and closes the resolver. Idempotent. */
    @Override
    public void close() {
        stop();
        resolver.close();
    }
}
