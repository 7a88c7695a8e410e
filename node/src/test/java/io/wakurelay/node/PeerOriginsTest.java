package io.wakurelay.node;

import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.crypto.PrivateKey;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class PeerOriginsTest {
    @Test
    void pastItsCapacityThePeerNotedOrReadLongestAgoIsForgotten() {
        PeerOrigins origins = new PeerOrigins();
        List<PeerId> peers = new ArrayList<>();
        for (int i = 0; i < PeerOrigins.CAPACITY + 100; i++) {
            PeerId peer = PeerId.fromPublicKey(PrivateKey.generateEd25519().publicKey());
            peers.add(peer);
            origins.found(peer, "Discv5");
            if (i == PeerOrigins.CAPACITY - 1) {
                assertThat(origins.of(peers.get(0))).isEqualTo("Discv5"); // read last: the others go first
            }
        }
        assertThat(origins.size()).isEqualTo(PeerOrigins.CAPACITY);
        assertThat(origins.of(peers.get(1))).as("noted longest ago").isNull();
        assertThat(origins.of(peers.get(100))).as("the 100th forgotten").isNull();
        assertThat(origins.of(peers.get(101))).isEqualTo("Discv5");
        assertThat(origins.of(peers.get(0))).as("read just before the store filled").isEqualTo("Discv5");
    }
}
