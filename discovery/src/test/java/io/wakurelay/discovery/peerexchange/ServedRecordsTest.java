package io.wakurelay.discovery.peerexchange;

import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.discovery.enr.EnrBuilder;
import io.wakurelay.discovery.enr.RelayShards;
import io.wakurelay.discovery.peers.PeerRecords;
import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** What the peer exchange server answers with: records of connected peers of the cluster, never the requester's. */
class ServedRecordsTest {
    private static final int CLUSTER = 0;

    private static Enr record(int cluster) {
        EnrBuilder builder = EnrBuilder.of(PrivateKey.generateSecp256k1())
                .announce(List.of(Multiaddr.parse("/ip4/192.0.2.7/tcp/60000")));
        if (cluster >= 0) {
            builder.shards(RelayShards.of(cluster, List.of(0)));
        }
        return builder.build(1);
    }

    private static List<Enr> decoded(List<byte[]> raw) {
        return raw.stream().map(Enr::decode).toList();
    }

    @Test
    void aPeerGetsTheRecordsOfConnectedPeersOfTheClusterButNeitherItsOwnNorUnreachedOnes() {
        Enr requester = record(CLUSTER);
        Enr connected = record(CLUSTER);
        Enr neverConnected = record(CLUSTER);
        Enr otherCluster = record(7);
        Enr noShards = record(-1);
        PeerRecords records = new PeerRecords(100);
        List.of(requester, connected, neverConnected, otherCluster, noShards).forEach(records::offer);
        Set<PeerId> up = Set.of(requester.peerId(), connected.peerId(), otherCluster.peerId(), noShards.peerId());
        ServedRecords served = new ServedRecords(records, up::contains, CLUSTER);

        assertThat(decoded(served.recordsFor(requester.peerId(), 50))).containsExactlyInAnyOrder(connected, noShards);
    }

    @Test
    void atMostTheNumberAskedIsServed() {
        PeerRecords records = new PeerRecords(100);
        for (int i = 0; i < 6; i++) {
            records.offer(record(CLUSTER));
        }
        ServedRecords served = new ServedRecords(records, peer -> true, CLUSTER);
        PeerId requester = PeerId.fromPublicKey(PrivateKey.generateSecp256k1().publicKey());

        assertThat(served.recordsFor(requester, 4)).hasSize(4);
        assertThat(served.recordsFor(requester, 60)).hasSize(6);
        assertThat(served.recordsFor(requester, 0)).isEmpty();
    }
}
