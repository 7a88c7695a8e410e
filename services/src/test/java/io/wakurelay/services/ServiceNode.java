package io.wakurelay.services;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.archive.RocksConfig;
import io.wakurelay.archive.MessageArchive;
import io.wakurelay.archive.RetentionPolicy;
import io.wakurelay.archive.StoreQuery;
import io.wakurelay.archive.StoreResponse;
import io.wakurelay.archive.backends.ArchiveBackends;
import io.wakurelay.p2p.Host;
import io.wakurelay.p2p.HostConfig;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.protocol.MessageHash;
import io.wakurelay.protocol.PathCounters;
import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.relay.GossipParams;
import io.wakurelay.relay.Relay;
import io.wakurelay.relay.RelayConfig;
import io.wakurelay.services.filter.FilterConfig;
import io.wakurelay.services.filter.FilterService;
import io.wakurelay.services.lightpush.LightpushConfig;
import io.wakurelay.services.lightpush.LightpushService;
import io.wakurelay.services.store.StoreLimits;
import io.wakurelay.services.store.StoreQueries;
import io.wakurelay.services.store.StoreService;
import io.wakurelay.services.store.StoreServiceConfig;
import io.wakurelay.testkit.Eventually;
import reactor.core.Disposable;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A Waku node assembled for tests as the node module assembles one: a host on its own loopback address, a relay,
 * an archive fed by the relay's accepted messages (each first handed to the filter service, as the node does), and
 * the services that are switched on. Closed in reverse order.
 */
public final class ServiceNode implements AutoCloseable {
    public static final String TOPIC = "/waku/2/rs/0/0";
    public static final String CONTENT_TOPIC = "/wakurelay/1/services/proto";

    /** Which services run, with what config; null: off. */
    public record Options(StoreServiceConfig store, StoreLimits storeLimits, LightpushConfig lightpush,
                          FilterConfig filter) {
        public static Options all() {
            return new Options(StoreServiceConfig.DEFAULTS, StoreLimits.DEFAULTS, LightpushConfig.DEFAULTS,
                    FilterConfig.DEFAULTS);
        }

        public static Options none() {
            return new Options(null, StoreLimits.DEFAULTS, null, null);
        }

        public Options withStore(StoreServiceConfig c) {
            return new Options(c, storeLimits, lightpush, filter);
        }

        public Options withStore(StoreServiceConfig c, StoreLimits limits) {
            return new Options(c, limits, lightpush, filter);
        }

        public Options withLightpush(LightpushConfig c) {
            return new Options(store, storeLimits, c, filter);
        }

        public Options withFilter(FilterConfig c) {
            return new Options(store, storeLimits, lightpush, c);
        }
    }

    public final MeterRegistry registry;
    public final Host host;
    public final Relay relay;
    public final MessageArchive archive;
    public final StoreService store;
    private final StoreQueries queries;
    public final LightpushService lightpush;
    public final FilterService filter;
    private final Disposable archiving;

    public ServiceNode(int index, Path dir, Options options) {
        this(index, dir, options, new SimpleMeterRegistry());
    }

    public ServiceNode(int index, Path dir, Options options, MeterRegistry registry) {
        this.registry = registry;
        host = Host.start(HostConfig.builder()
                .listenAddress(new InetSocketAddress("127.0.0." + (index + 2), 0))
                .maxConnections(200)
                .handshakeTimeout(Duration.ofSeconds(5))
                .build(), PrivateKey.generateEd25519(), registry);
        relay = Relay.start(RelayConfig.builder()
                .gossip(GossipParams.DEFAULTS.toBuilder().heartbeat(Duration.ofMillis(100)).build())
                .build(), host, new PathCounters(), registry);
        archive = ArchiveBackends.open(RocksConfig.defaults(dir.resolve("archive-" + index))
                .toBuilder().blockCacheBytes(16L << 20).writeBufferBytes(4L << 20).build()
                .withCore(c -> c.retention(new RetentionPolicy.None()).timestampWindow(Duration.ZERO)
                        .maxBatchMessages(64).maxBatchDelay(Duration.ofMillis(2)).maxPendingMessages(256)), registry);
        filter = options.filter() == null ? null : FilterService.start(options.filter(), host, relay, registry);
        archiving = archive.write(relay.accepted().doOnNext(e -> {
            if (filter != null) {
                filter.onAccepted(e);
            }
        })).subscribe();
        queries = new StoreQueries(archive, options.storeLimits(), registry);
        store = options.store() == null ? null : StoreService.start(options.store(), host, queries, registry);
        lightpush = options.lightpush() == null ? null : LightpushService.start(options.lightpush(), host, relay, registry);
    }

    public Multiaddr address() {
        return host.listenAddresses().get(0);
    }

    /** Connects to {@code other} and waits until each is in the other's mesh of {@link #TOPIC}. */
    public void connectRelay(ServiceNode other) {
        host.dial(other.address()).block(Duration.ofSeconds(10));
        Eventually.until(() -> inMesh(other) && other.inMesh(this),
                () -> "mesh of " + host.peerId() + ": " + relay.mesh() + ", of " + other.host.peerId() + ": " + other.relay.mesh());
    }

    private boolean inMesh(ServiceNode other) {
        return relay.mesh().getOrDefault(TOPIC, List.of()).contains(other.host.peerId());
    }

    public MessageHash publish(WakuMessage message) {
        return relay.publish(TOPIC, message).block(Duration.ofSeconds(10)).hash();
    }

    /** Waits until the archive holds {@code hash}. */
    public void awaitArchived(MessageHash hash) {
        Eventually.until(() -> isArchived(hash), () -> hash + " is not in the archive of " + host.peerId());
    }

    public boolean isArchived(MessageHash hash) {
        StoreResponse r = archive.query(StoreQuery.builder().hashes(hash).build());
        return r.messages().size() == 1;
    }

    @Override
    public void close() {
        Duration grace = Duration.ofSeconds(2);
        if (lightpush != null) {
            lightpush.shutdown(grace).block();
        }
        if (store != null) {
            store.shutdown(grace).block();
        }
        queries.close();
        if (filter != null) {
            filter.shutdown(grace).block();
        }
        relay.shutdown(grace).block(Duration.ofSeconds(10));
        archiving.dispose();
        archive.close();
        host.close();
    }
}
