package io.wakurelay.discovery.peers;

import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.discovery.enr.EnrBuilder;
import io.wakurelay.discovery.enr.RelayShards;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

class PeerRecordsTest {

    private static Enr record(PrivateKey key, long seq, int port) {
        return EnrBuilder.of(key).announce(List.of(Multiaddr.parse("/ip4/192.0.2.1/tcp/" + port))).build(seq);
    }

    private static Enr record(int port) {
        return record(PrivateKey.generateSecp256k1(), 1, port);
    }

    @Test
    void aPeersNewerRecordReplacesItsOlderOneAndAnOlderCopyDoesNot() {
        PeerRecords records = new PeerRecords(4);
        PrivateKey key = PrivateKey.generateSecp256k1();
        Enr first = record(key, 1, 60000);
        Enr second = record(key, 2, 60001);
        assertThat(records.offer(first)).isEqualTo(PeerRecords.Offer.ADDED);
        assertThat(records.offer(second)).isEqualTo(PeerRecords.Offer.REPLACED);
        assertThat(records.offer(first)).isEqualTo(PeerRecords.Offer.KEPT);
        assertThat(records.get(first.peerId())).contains(second);
        assertThat(records.size()).isEqualTo(1);
    }

    @Test
    void whenFullTheRecordOfferedLongestAgoIsPushedOut() {
        PeerRecords records = new PeerRecords(2);
        Enr a = record(60000);
        Enr b = record(60001);
        Enr c = record(60002);
        records.offer(a);
        records.offer(b);
        records.offer(a); // a is now the newest offered
        records.offer(c);
        assertThat(records.get(b.peerId())).isEmpty();
        assertThat(records.get(a.peerId())).contains(a);
        assertThat(records.get(c.peerId())).contains(c);
        assertThat(records.size()).isEqualTo(2);
        assertThat(records.evictions()).isEqualTo(1);
    }

    @Test
    void aSampleHasAtMostTheNumberAskedOfEligibleRecordsOnly() {
        PeerRecords records = new PeerRecords(100);
        List<Enr> all = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            Enr r = record(60000 + i);
            all.add(r);
            records.offer(r);
        }
        Enr excluded = all.get(3);
        List<Enr> sample = records.sample(5, r -> !r.equals(excluded), new SplittableRandom(1));
        assertThat(sample).hasSize(5).doesNotContain(excluded).doesNotHaveDuplicates();
        assertThat(records.sample(50, r -> true, new SplittableRandom(1))).hasSize(20);
        assertThat(records.sample(0, r -> true, new SplittableRandom(1))).isEmpty();
    }

    @Test
    void everyEligibleRecordIsAboutEquallyLikelyToBeSampled() {
        PeerRecords records = new PeerRecords(10);
        List<Enr> all = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            Enr r = record(60000 + i);
            all.add(r);
            records.offer(r);
        }
        Map<Enr, Integer> picked = new HashMap<>();
        SplittableRandom random = new SplittableRandom(7);
        for (int round = 0; round < 10_000; round++) {
            records.sample(2, r -> true, random).forEach(r -> picked.merge(r, 1, Integer::sum));
        }
        // each record is expected 2,000 times; a biased sampler (the first ones always) is far off
        assertThat(picked).hasSize(10);
        picked.values().forEach(n -> assertThat(n).isBetween(1_700, 2_300));
    }

    @Test
    void aRecordIsOfTheClusterItNamesOrOfAnyWhenItNamesNone() {
        PrivateKey key = PrivateKey.generateSecp256k1();
        EnrBuilder builder = EnrBuilder.of(key).announce(List.of(Multiaddr.parse("/ip4/192.0.2.1/tcp/60000")));
        Enr none = builder.build(1);
        Enr cluster2 = builder.shards(RelayShards.of(2, List.of(0, 1))).build(2);
        assertThat(PeerRecords.ofCluster(none, 0)).isTrue();
        assertThat(PeerRecords.ofCluster(cluster2, 2)).isTrue();
        assertThat(PeerRecords.ofCluster(cluster2, 0)).isFalse();
    }
}
