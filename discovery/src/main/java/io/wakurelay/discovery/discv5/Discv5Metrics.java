package io.wakurelay.discovery.discv5;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;

/**
 * discv5's meters ({@code waku_discv5_*}): packets in and out by kind, packets dropped by why, sessions and table
 * size, lookups and the records they found, and nwaku's {@code waku_discv5_errors{type}} for found records that
 * cannot be used; nwaku's {@code waku_discv5_discovered_per_shard{shard}} for the node's own shards
 * ({@link #shards}), and nim-eth's {@code routing_table_nodes} (every node of our table proved alive, so its
 * {@code state="seen"} series is the same count). Every label value is registered at start; {@link #close()} removes
 * them.
 */
public final class Discv5Metrics implements AutoCloseable {

    /** The kinds of packet, by header flag. */
    public enum Kind { ORDINARY, WHOAREYOU, HANDSHAKE }

    /**
     * Why a packet was dropped: its source (address or IPv6 /64) past its rate; not a packet, or a broken one;
     * answering nothing we asked; a handshake that does not verify; one of our requests past the pending bound; a
     * packet that needed a WHOAREYOU past the rate of all of them; or while the challenge table held only challenges
     * younger than the request timeout.
     */
    public enum Drop {
        RATE_LIMITED, INVALID, UNSOLICITED, BAD_HANDSHAKE, PENDING_FULL, WHOAREYOU_RATE, CHALLENGES_FULL;

        String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** Why a found record was not handed to the dialler (nwaku's error types where they exist). */
    public enum RecordError {
        PARSE_FAILURE("ParseFailure"), NO_SHARD_INFO("NoShardInfo"), OTHER_SHARDS("other_shards"),
        NO_ADDRESS("no_address");

        private final String label;

        RecordError(String label) {
            this.label = label;
        }
    }

    private final MeterRegistry registry;
    private final List<Meter> meters = new ArrayList<>();
    private final Map<Kind, Counter> in = new EnumMap<>(Kind.class);
    private final Map<Kind, Counter> out = new EnumMap<>(Kind.class);
    private final Map<Drop, Counter> dropped = new EnumMap<>(Drop.class);
    private final Map<RecordError, Counter> errors = new EnumMap<>(RecordError.class);
    private final Counter lookups;
    private final Counter discovered;
    private final Counter handshakes;
    private final Counter bucketIpLimit;
    private final Counter tableIpLimit;
    private final Counter enrAutoUpdates;
    private volatile IntSupplier sessions = () -> 0;
    private volatile IntSupplier tableSize = () -> 0;
    private volatile IntSupplier addressVotes = () -> 0;
    private final Map<Integer, AtomicLong> perShard = new ConcurrentHashMap<>();

    public Discv5Metrics(MeterRegistry registry) {
        this.registry = registry;
        for (Kind kind : Kind.values()) {
            String label = kind.name().toLowerCase(java.util.Locale.ROOT);
            in.put(kind, add(Counter.builder("waku.discv5.packets.in").tag("kind", label)
                    .description("discv5: packets taken in (after the rate limit and the header check), by kind")
                    .register(registry)));
            out.put(kind, add(Counter.builder("waku.discv5.packets.out").tag("kind", label)
                    .description("discv5: packets sent, by kind").register(registry)));
        }
        for (Drop drop : Drop.values()) {
            dropped.put(drop, add(Counter.builder("waku.discv5.dropped").tag("reason", drop.label())
                    .description("discv5: packets and requests dropped, by why").register(registry)));
        }
        for (RecordError error : RecordError.values()) {
            errors.put(error, add(Counter.builder("waku.discv5.errors").tag("type", error.label)
                    .description("discv5: found records not handed to the dialler, by why").register(registry)));
        }
        lookups = add(Counter.builder("waku.discv5.lookups")
                .description("discv5: random lookups run").register(registry));
        discovered = add(Counter.builder("waku.discv5.discovered")
                .description("discv5: verified records found by lookups (each lookup counts its finds)")
                .register(registry));
        handshakes = add(Counter.builder("waku.discv5.handshakes")
                .description("discv5: handshakes sent as initiator and accepted as recipient").register(registry));
        bucketIpLimit = add(Counter.builder("waku.discv5.table.refused").tag("reason", "bucket_ip_limit")
                .description("discv5: nodes not added to the routing table, by the IP limit they met")
                .register(registry));
        tableIpLimit = add(Counter.builder("waku.discv5.table.refused").tag("reason", "table_ip_limit")
                .description("discv5: nodes not added to the routing table, by the IP limit they met")
                .register(registry));
        enrAutoUpdates = add(Counter.builder("waku.discv5.enr.auto.updates")
                .description("discv5: our record updated to the address the majority of PONGs names")
                .register(registry));
        meters.add(Gauge.builder("waku.discv5.sessions", () -> sessions.getAsInt())
                .description("discv5: sessions with keys").register(registry));
        meters.add(Gauge.builder("waku.discv5.table.size", () -> tableSize.getAsInt())
                .description("discv5: nodes in the routing table").register(registry));
        // nim-eth's names (nwaku's dashboards read them): a node enters our table only once it answered, which is
        // what nim-eth counts as "seen", so both series are the table's size
        meters.add(Gauge.builder("routing.table.nodes", () -> tableSize.getAsInt())
                .description("discv5: nodes in the routing table (nim-eth's name)").register(registry));
        meters.add(Gauge.builder("routing.table.nodes", () -> tableSize.getAsInt()).tag("state", "seen")
                .description("discv5: nodes in the routing table (nim-eth's name)").register(registry));
        meters.add(Gauge.builder("waku.discv5.address.votes", () -> addressVotes.getAsInt())
                .description("discv5: PONGs' votes on our external address held, one per node (the oldest go past the cap)")
                .register(registry));
    }

    /**
     * Registers nwaku's {@code waku_discv5_discovered_per_shard} at 0 for {@code shards}, the node's own: the label
     * values come from this node, never from a record (nwaku labels every shard a found record names).
     */
    public void shards(Collection<Integer> shards) {
        for (Integer shard : shards) {
            perShard.computeIfAbsent(shard, s -> {
                AtomicLong count = new AtomicLong();
                meters.add(Gauge.builder("waku.discv5.discovered.per.shard", count, AtomicLong::get)
                        .tag("shard", Integer.toString(s))
                        .description("discv5: records of this shard found by lookups and handed to the dialler "
                                + "(nwaku's name: a gauge that only grows)")
                        .register(registry));
                return count;
            });
        }
    }

    /** A found record handed to the dialler: counts it under each of {@code itsShards} that {@link #shards} named. */
    public void discoveredOn(Collection<Integer> itsShards) {
        for (Integer shard : itsShards) {
            AtomicLong count = perShard.get(shard);
            if (count != null) {
                count.incrementAndGet();
            }
        }
    }

    private Counter add(Counter counter) {
        meters.add(counter);
        return counter;
    }

    void bind(IntSupplier sessions, IntSupplier tableSize, IntSupplier addressVotes) {
        this.sessions = sessions;
        this.tableSize = tableSize;
        this.addressVotes = addressVotes;
    }

    /** The votes on our external address held now, as the gauge reads them. */
    public int addressVotes() {
        return addressVotes.getAsInt();
    }

    void in(int flag) {
        in.get(Kind.values()[flag]).increment();
    }

    void out(int flag) {
        out.get(Kind.values()[flag]).increment();
    }

    void dropped(Drop drop) {
        dropped.get(drop).increment();
    }

    void handshake() {
        handshakes.increment();
    }

    void lookup(int found) {
        lookups.increment();
        discovered.increment(found);
    }

    void tableRefused(RoutingTable.Added why) {
        (why == RoutingTable.Added.BUCKET_IP_LIMIT ? bucketIpLimit : tableIpLimit).increment();
    }

    void enrAutoUpdate() {
        enrAutoUpdates.increment();
    }

    public double enrAutoUpdateCount() {
        return enrAutoUpdates.count();
    }

    public void recordError(RecordError error) {
        errors.get(error).increment();
    }

    public double droppedCount(Drop drop) {
        return dropped.get(drop).count();
    }

    @Override
    public void close() {
        meters.forEach(registry::remove);
    }
}
