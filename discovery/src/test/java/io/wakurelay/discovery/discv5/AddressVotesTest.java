package io.wakurelay.discovery.discv5;

import static org.assertj.core.api.Assertions.assertThat;

import io.wakurelay.p2p.crypto.PrivateKey;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

/** nim-eth's ip_vote: one vote per node, votes that expire, a threshold, and (ours) no majority on a tie. */
class AddressVotesTest {

    private static final InetSocketAddress REAL = new InetSocketAddress("198.51.100.4", 9000);
    private static final InetSocketAddress FAKE = new InetSocketAddress("203.0.113.66", 1);

    private static byte[] node() {
        return NodeIds.of(PrivateKey.generateSecp256k1().publicKey().raw());
    }

    @Test
    void oneHostileNodeHoldsOneVoteHoweverOftenItAnswers() {
        AddressVotes votes = new AddressVotes(2, 256);
        byte[] hostile = node();
        for (int i = 0; i < 1000; i++) {
            votes.add(hostile, FAKE, i);
        }
        assertThat(votes.size()).isEqualTo(1);
        assertThat(votes.majority(1000)).isEmpty();
        votes.add(node(), REAL, 1001);
        votes.add(node(), REAL, 1002);
        assertThat(votes.majority(1003)).contains(REAL);
        // its last vote replaces its earlier ones: it cannot vote for two addresses either
        votes.add(hostile, REAL, 1004);
        votes.add(hostile, FAKE, 1005);
        assertThat(votes.size()).isEqualTo(3);
        assertThat(votes.majority(1006)).contains(REAL);
    }

    @Test
    void anAddressNeedsTheThresholdAndMoreVotesThanAnyOther() {
        AddressVotes votes = new AddressVotes(3, 256);
        votes.add(node(), REAL, 0);
        votes.add(node(), REAL, 0);
        assertThat(votes.majority(1)).isEmpty(); // 2 of 3
        votes.add(node(), REAL, 0);
        assertThat(votes.majority(1)).contains(REAL);
        for (int i = 0; i < 3; i++) {
            votes.add(node(), FAKE, 0);
        }
        assertThat(votes.majority(1)).isEmpty(); // a tie: neither
        votes.add(node(), FAKE, 0);
        assertThat(votes.majority(1)).contains(FAKE);
    }

    @Test
    void votesExpireAndTheOldestGoWhenFull() {
        AddressVotes votes = new AddressVotes(2, 3);
        long lifetime = AddressVotes.LIFETIME.toNanos();
        votes.add(node(), REAL, 0);
        votes.add(node(), REAL, 0);
        assertThat(votes.majority(lifetime)).contains(REAL);
        assertThat(votes.majority(lifetime + 1)).isEmpty();
        assertThat(votes.size()).isZero();

        votes.add(node(), REAL, 0);
        votes.add(node(), REAL, 0);
        votes.add(node(), FAKE, 0);
        votes.add(node(), FAKE, 0); // the first REAL vote goes: 3 at most
        assertThat(votes.size()).isEqualTo(3);
        assertThat(votes.majority(1)).contains(FAKE);
    }
}
