package io.wakurelay.discovery.peerexchange;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.discovery.enr.EnrBuilder;
import io.wakurelay.discovery.enr.RelayShards;
import io.wakurelay.discovery.peers.Origin;
import io.wakurelay.discovery.peers.PeerRecords;
import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.scheduler.VirtualTimeScheduler;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** Peer exchange as a finder: what it offers of an answer, what it counts, and when it asks. */
class PeerExchangeDiscoveryTest {
    private static final int CLUSTER = 0;
    private static final Multiaddr NODE = Multiaddr.parse("/ip4/192.0.2.1/tcp/60000/p2p/"
            + PeerId.fromPublicKey(PrivateKey.generateSecp256k1().publicKey()));

    private final PrivateKey own = PrivateKey.generateSecp256k1();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final PeerRecords records = new PeerRecords(10);
    private final PeerExchangeDiscoveryMetrics metrics = new PeerExchangeDiscoveryMetrics(registry, records);
    private final VirtualTimeScheduler timer = VirtualTimeScheduler.create();
    private final List<List<Enr>> offered = new CopyOnWriteArrayList<>();

    @AfterEach
    void close() {
        metrics.close();
        timer.dispose();
    }

    private PeerExchangeDiscovery finder(PeerExchangeDiscoveryConfig config, PeerExchangeRequests requests,
            Set<PeerId> connected) {
        return new PeerExchangeDiscovery(config, requests, PeerId.fromPublicKey(own.publicKey()), connected::contains,
                CLUSTER, records, metrics, timer);
    }

    private PeerExchangeDiscovery answering(List<byte[]> answer, Set<PeerId> connected) {
        return finder(PeerExchangeDiscoveryConfig.DEFAULTS.toBuilder().node(NODE).numPeers(10).build(),
                (peer, numPeers) -> Mono.just(answer), connected);
    }

    private static Enr record(PrivateKey key, int cluster, boolean address) {
        EnrBuilder builder = EnrBuilder.of(key);
        if (address) {
            builder.announce(List.of(Multiaddr.parse("/ip4/192.0.2.7/tcp/60000")));
        }
        if (cluster >= 0) {
            builder.shards(RelayShards.of(cluster, List.of(0)));
        }
        return builder.build(1);
    }

    private static Enr record(int cluster) {
        return record(PrivateKey.generateSecp256k1(), cluster, true);
    }

    private double records(String outcome) {
        return registry.get("waku.px.records").tag("outcome", outcome).counter().count();
    }

    private double counter(String name) {
        return registry.get(name).counter().count();
    }

    @Test
    void recordsOfOurClusterWithAnAddressAreOfferedAsPeerExchangeFindsAndNothingIsDialled() {
        Enr ours = record(CLUSTER);
        Enr noShards = record(-1);
        Enr known = record(CLUSTER);
        records.offer(known);
        PeerExchangeDiscovery finder = answering(List.of(ours.encoded(), noShards.encoded(), known.encoded()),
                Set.of());
        List<Origin> origins = new CopyOnWriteArrayList<>();

        finder.start((found, origin) -> {
            offered.add(List.copyOf(found));
            origins.add(origin);
        });

        assertThat(offered).containsExactly(List.of(ours, noShards, known));
        assertThat(origins).containsExactly(Origin.PEER_EXCHANGE);
        assertThat(counter("waku.px.peers.received")).isEqualTo(3);
        assertThat(counter("waku.px.peers.received.unknown")).as("the known one is not unknown").isEqualTo(2);
        finder.close();
    }

    @Test
    void recordsThatDoNotDecodeNameAnotherClusterOrThisNodeOrNoAddressAreDroppedAndCounted() {
        Enr damagedRecord = record(CLUSTER);
        byte[] damaged = damagedRecord.encoded();
        damaged[damaged.length - 1] ^= 1;
        Enr noAddress = record(PrivateKey.generateSecp256k1(), CLUSTER, false);
        Enr connectedNoAddress = record(PrivateKey.generateSecp256k1(), CLUSTER, false);
        List<byte[]> answer = List.of(new byte[] {1, 2, 3}, damaged, record(5).encoded(),
                record(own, CLUSTER, true).encoded(), noAddress.encoded(), connectedNoAddress.encoded());

        List<Enr> found = answering(answer, Set.of(connectedNoAddress.peerId())).ask(NODE).block();

        assertThat(found).as("a connected peer needs no address").containsExactly(connectedNoAddress);
        assertThat(records("invalid")).isEqualTo(3);
        assertThat(records("other_cluster")).isEqualTo(1);
        assertThat(records("own")).isEqualTo(1);
        assertThat(counter("waku.px.peers.received")).isEqualTo(6);
    }

    @Test
    void ofAnAnswerWithMoreRecordsThanAskedOnlyTheFirstAreTaken() {
        List<byte[]> many = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            many.add(record(CLUSTER).encoded());
        }
        PeerExchangeDiscovery finder = finder(PeerExchangeDiscoveryConfig.DEFAULTS.toBuilder().numPeers(3).build(),
                (peer, numPeers) -> Mono.just(many), Set.of());

        assertThat(finder.ask(NODE).block()).hasSize(3);
        assertThat(counter("waku.px.peers.received")).isEqualTo(3);
    }

    @Test
    void theNodeIsAskedAtStartAndEachIntervalAndAFailedRoundDoesNotEndTheLoop() {
        AtomicInteger asked = new AtomicInteger();
        Enr later = record(CLUSTER);
        PeerExchangeDiscovery finder = finder(PeerExchangeDiscoveryConfig.DEFAULTS.toBuilder().node(NODE).build(),
                (peer, numPeers) -> {
                    assertThat(peer).isEqualTo(NODE);
                    assertThat(numPeers).isEqualTo(5);
                    return asked.incrementAndGet() == 1 ? Mono.error(new IllegalStateException("no answer"))
                            : Mono.just(List.of(later.encoded()));
                }, Set.of());

        finder.start((found, origin) -> offered.add(List.copyOf(found)));
        assertThat(asked).hasValue(1);
        assertThat(offered).isEmpty();
        timer.advanceTimeBy(Duration.ofSeconds(59));
        assertThat(asked).as("not before the minute is over").hasValue(1);
        timer.advanceTimeBy(Duration.ofSeconds(1));
        assertThat(asked).hasValue(2);
        assertThat(offered).containsExactly(List.of(later));
        timer.advanceTimeBy(Duration.ofMinutes(1));
        assertThat(asked).hasValue(3);

        finder.stop();
        timer.advanceTimeBy(Duration.ofMinutes(5));
        assertThat(asked).as("stopped").hasValue(3);
    }

    @Test
    void withoutANodeNothingIsAsked() {
        AtomicInteger asked = new AtomicInteger();
        PeerExchangeDiscovery finder = finder(PeerExchangeDiscoveryConfig.DEFAULTS,
                (peer, numPeers) -> Mono.fromCallable(() -> List.of(new byte[asked.incrementAndGet()])), Set.of());

        finder.start((found, origin) -> offered.add(List.copyOf(found)));
        timer.advanceTimeBy(Duration.ofMinutes(5));

        assertThat(asked).hasValue(0);
        assertThat(offered).isEmpty();
    }

    @Test
    void whatTheSinkSaysOfItsDialsIsCounted() {
        PeerExchangeDiscovery finder = answering(List.of(), Set.of());
        finder.dialled(true);
        finder.dialled(false);
        finder.dialled(false);
        assertThat(records("connected")).isEqualTo(1);
        assertThat(records("dial_failed")).isEqualTo(2);
    }

    @Test
    void theMetersAreRegisteredAtZeroAndRemovedAtClose() {
        assertThat(records("connected")).isZero();
        assertThat(registry.get("waku.px.cache.capacity").gauge().value()).isEqualTo(10);
        metrics.close();
        assertThat(registry.getMeters()).isEmpty();
    }
}
