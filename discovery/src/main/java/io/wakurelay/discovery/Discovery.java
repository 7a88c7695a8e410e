package io.wakurelay.discovery;

import io.micrometer.core.instrument.MeterRegistry;
import io.wakurelay.discovery.discv5.Discv5Discovery;
import io.wakurelay.discovery.discv5.Discv5DiscoveryConfig;
import io.wakurelay.discovery.discv5.Discv5Metrics;
import io.wakurelay.discovery.dns.DnsDiscovery;
import io.wakurelay.discovery.dns.DnsDiscoveryMetrics;
import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.discovery.peerexchange.PeerExchangeDiscovery;
import io.wakurelay.discovery.peerexchange.PeerExchangeDiscoveryMetrics;
import io.wakurelay.discovery.peerexchange.PeerExchangeRequests;
import io.wakurelay.discovery.peerexchange.ServedRecords;
import io.wakurelay.discovery.peers.Origin;
import io.wakurelay.discovery.peers.PeerRecords;
import io.wakurelay.discovery.peers.RecordSink;
import io.wakurelay.p2p.Host;
import io.wakurelay.p2p.crypto.KeyType;
import io.wakurelay.p2p.crypto.PeerId;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.function.IntUnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * Discovery in a node (docs/discovery.md), the one door the node uses. {@link #start} makes what must exist before
 * anything is found: the meters (registered in every node, at zero while a finder is off, as nwaku declares them),
 * the record cache with the static peers' records, discv5's UDP socket, and the node's own record (so the services it
 * names must be started before). {@link #startFinders} then starts the finders: DNS discovery, discv5's search loop and
 * the peer exchange node's loop, each offering what it finds to the {@link RecordSink} (the node's peer manager, which
 * alone dials); DNS discovery's finds also join discv5's table as bootstrap nodes. The sink tells back which offered
 * peers it connected ({@link #connected}: their records join the cache) and which dials failed ({@link #dialFailed}).
 * The peer exchange server (services) answers from {@link #recordsFor}.
 */
public final class Discovery implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Discovery.class);

    private final Host host;
    private final int clusterId;
    private final List<Integer> shards;
    private final PeerRecords records;
    private final ServedRecords served;
    private final PeerExchangeDiscovery peerExchange;
    private final DnsDiscovery dns;
    private final Discv5Discovery discv5;
    private final NodeRecord record;
    private final List<AutoCloseable> owned;

    private Discovery(Host host, int clusterId, List<Integer> shards, PeerRecords records,
            PeerExchangeDiscovery peerExchange, DnsDiscovery dns, Discv5Discovery discv5, NodeRecord record,
            List<AutoCloseable> owned) {
        this.host = host;
        this.clusterId = clusterId;
        this.shards = shards;
        this.records = records;
        this.served = ServedRecords.of(records, host, clusterId);
        this.peerExchange = peerExchange;
        this.dns = dns;
        this.discv5 = discv5;
        this.record = record;
        this.owned = owned;
    }

    /**
     * Makes what the finders need (see the class comment); finds nothing yet. A failure closes what was made.
     *
     * @param udpAddress where discv5 binds its UDP port (the host's listen address)
     * @param dataDir    where the node's record is kept ({@code <dataDir>/enr}), its sequence number across restarts
     * @param clusterId  records of another cluster are neither offered nor served
     * @param topics     the pubsub topics relayed: the record's shards, and discv5's shard filter
     * @param requests   the peer exchange wire client, which asks the peer exchange node
     * @param recordUdpPort the UDP port the record names for the one discv5 bound: another where a gateway maps it
     */
    public static Discovery start(DiscoveryConfig config, Host host, InetAddress udpAddress, Path dataDir,
            int clusterId, Collection<String> topics, PeerExchangeRequests requests, IntUnaryOperator recordUdpPort,
            MeterRegistry registry) {
        Objects.requireNonNull(config, "config");
        List<AutoCloseable> owned = new ArrayList<>();
        try {
            PeerRecords records = new PeerRecords(config.cacheCapacity());
            config.staticRecords().forEach(records::offer);
            PeerExchangeDiscoveryMetrics pxMetrics = own(owned, new PeerExchangeDiscoveryMetrics(registry, records));
            PeerExchangeDiscovery peerExchange = own(owned, PeerExchangeDiscovery.create(config.peerExchange(),
                    requests, host, clusterId, records, pxMetrics));
            DnsDiscoveryMetrics dnsMetrics = own(owned, new DnsDiscoveryMetrics(registry));
            DnsDiscovery dns = config.dns().enabled()
                    ? own(owned, DnsDiscovery.create(config.dns(), host.peerId(), clusterId, dnsMetrics)) : null;
            Discv5Metrics discv5Metrics = own(owned, new Discv5Metrics(registry));
            List<Integer> shards = NodeRecord.shardsOf(clusterId, topics);
            discv5Metrics.shards(shards); // nwaku's per-shard series, the node's own shards, at 0 while discv5 is off
            Discv5Discovery discv5 = own(owned, bindDiscv5(config.discv5(), host, udpAddress, discv5Metrics));
            NodeRecord record = NodeRecord.publish(dataDir, host, clusterId, topics,
                    discv5 == null ? OptionalInt.empty() : OptionalInt.of(recordUdpPort.applyAsInt(discv5.port())));
            if (discv5 != null && record != null) {
                // --discv5-enr-auto-update: the address the nodes we ping agree on goes into the record (and its file)
                discv5.announce(record.current(), record::withExternalAddress);
            }
            return new Discovery(host, clusterId, shards, records, peerExchange, dns,
                    discv5, record, owned);
        } catch (Throwable e) { // whatever failed, even undeclared: what was made is closed
            closeAll(owned);
            throw e;
        }
    }

    /** discv5, bound, when it is on and the node key can sign its record; null otherwise. */
    private static Discv5Discovery bindDiscv5(Discv5DiscoveryConfig config, Host host, InetAddress udpAddress,
            Discv5Metrics metrics) {
        if (!config.enabled()) {
            return null;
        }
        if (host.identity().type() != KeyType.SECP256K1) {
            log.atWarn().addKeyValue("keyType", String.valueOf(host.identity().type()))
                    .log("discv5 is off: its records (the \"v4\" identity) need a secp256k1 node key");
            return null;
        }
        return Discv5Discovery.bind(config, udpAddress, host.identity(), metrics);
    }

    private static <T extends AutoCloseable> T own(List<AutoCloseable> owned, T part) {
        if (part != null) {
            owned.add(part);
        }
        return part;
    }

    /** The node's record now, or null when its key cannot sign one (an Ed25519 key). */
    public Enr record() {
        return record == null ? null : record.current();
    }

    /**
     * What the peer exchange server answers {@code requester} with: up to {@code max} records of peers connected now,
     * of this cluster, not the requester's own, each its RLP encoding.
     */
    public List<byte[]> recordsFor(PeerId requester, int max) {
        return served.recordsFor(requester, max);
    }

    /** Starts the finders that are on; what they find goes to {@code sink}. */
    public void startFinders(RecordSink sink) {
        Objects.requireNonNull(sink, "sink");
        if (discv5 != null && record != null) {
            discv5.start(host.peerId(), clusterId, shards, sink);
            if (dns != null) {
                dns.onFound(discv5::addBootstrap);
            }
        }
        if (dns != null) {
            dns.start(sink);
        }
        peerExchange.start(sink);
    }

    /** The sink connected {@code found}'s peer (dialled now, or connected already): its record joins the cache. */
    public void connected(Enr found, Origin origin) {
        records.offer(found);
        if (origin == Origin.PEER_EXCHANGE) {
            peerExchange.dialled(true);
        }
    }

    /** The sink's dial of {@code found}'s peer failed. */
    public void dialFailed(Enr found, Origin origin) {
        if (origin == Origin.PEER_EXCHANGE) {
            peerExchange.dialled(false);
        }
    }

    /** Stops the finders (a lookup, sync or request under way is cancelled); discv5 still answers. Idempotent. */
    public void stopFinders() {
        peerExchange.stop();
        if (dns != null) {
            dns.stop();
        }
        if (discv5 != null) {
            discv5.stop();
        }
    }

    public Mono<Void> shutdown(Duration grace) {
        return Mono.fromRunnable(this::close);
    }

    /** Stops the finders, closes discv5's socket and DNS discovery's resolver, removes the meters. Idempotent. */
    @Override
    public void close() {
        stopFinders();
        closeAll(owned);
    }

    private static void closeAll(List<AutoCloseable> owned) {
        synchronized (owned) {
            for (int i = owned.size() - 1; i >= 0; i--) {
                try {
                    owned.get(i).close();
                } catch (Exception e) {
                    log.atWarn().addKeyValue("finder", owned.get(i).getClass().getSimpleName())
                            .addKeyValue("reason", e.toString()).log("discovery: closing a finder failed");
                }
            }
            owned.clear();
        }
    }
}
