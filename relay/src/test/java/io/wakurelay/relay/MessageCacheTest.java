package io.wakurelay.relay;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.crypto.PrivateKey;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class MessageCacheTest {
    private static MessageId id(int n) {
        return new MessageId(ByteBuffer.allocate(32).putInt(n).array());
    }

    private static ByteBuf rpc(int size) {
        return PooledByteBufAllocator.DEFAULT.directBuffer(size).writeZero(size);
    }

    @Test
    void messagesLeaveAfterTheHistoryAndOnlyTheGossipWindowIsAdvertised() {
        MessageCache cache = new MessageCache(6, 3, 1 << 20);
        cache.put(id(1), "t", rpc(10));
        for (int i = 0; i < 3; i++) {
            cache.shift();
        }
        cache.put(id(2), "t", rpc(10));
        cache.put(id(3), "other", rpc(10));

        assertThat(cache.gossipIds("t")).containsExactly(id(2));
        assertThat(cache.get(id(1))).isNotNull();
        for (int i = 0; i < 3; i++) {
            cache.shift();
        }
        assertThat(cache.get(id(1))).as("older than the history").isNull();
        assertThat(cache.get(id(2))).isNotNull();
        cache.clear();
        assertThat(cache.bytes()).isZero();
    }

    @Test
    void pastItsByteBoundTheOldestMessagesLeaveEarly() {
        MessageCache cache = new MessageCache(6, 3, 250);
        for (int i = 0; i < 5; i++) {
            cache.put(id(i), "t", rpc(100));
        }

        assertThat(cache.bytes()).isLessThanOrEqualTo(250);
        assertThat(cache.evictedEarly()).isEqualTo(3);
        assertThat(cache.get(id(0))).isNull();
        assertThat(cache.get(id(4))).isNotNull();
        cache.clear();
    }

    @Test
    void countsHowOftenEachPeerAskedForAMessage() {
        MessageCache cache = new MessageCache(6, 3, 1 << 20);
        cache.put(id(1), "t", rpc(10));
        PeerId peer = PeerId.fromPublicKey(PrivateKey.generateEd25519().publicKey());

        assertThat(cache.get(id(1)).requestedBy(peer)).isEqualTo(1);
        assertThat(cache.get(id(1)).requestedBy(peer)).isEqualTo(2);
        cache.clear();
    }

    @Test
    void countsEachOfManyPeersApart() {
        MessageCache cache = new MessageCache(6, 3, 1 << 20);
        cache.put(id(1), "t", rpc(10));
        List<PeerId> peers = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            peers.add(PeerId.fromPublicKey(PrivateKey.generateEd25519().publicKey()));
        }
        for (int round = 1; round <= 3; round++) {
            for (PeerId peer : peers) {
                assertThat(cache.get(id(1)).requestedBy(peer)).isEqualTo(round);
            }
        }
        cache.clear();
    }

    @Test
    void aSecondPutOfTheSameIdReleasesTheNewBuffer() {
        MessageCache cache = new MessageCache(6, 3, 1 << 20);
        ByteBuf second = rpc(10);
        cache.put(id(1), "t", rpc(10));

        assertThat(cache.put(id(1), "t", second)).isFalse();
        assertThat(second.refCnt()).isZero();
        cache.clear();
    }
}
