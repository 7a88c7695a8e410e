package io.wakurelay.relay;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.ImmediateEventExecutor;
import io.netty.util.concurrent.Promise;
import io.wakurelay.p2p.connection.Connection;
import io.wakurelay.p2p.connection.Stream;
import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.relay.PeerSender.Kind;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link PeerSender} on a stream whose writes complete only when the test says the connection took them, so that
 * what the queue bound counts, drops and reports is seen write by write.
 */
class PeerSenderTest {
    private static final RelayConfig CONFIG = RelayConfig.DEFAULTS.toBuilder().peerQueueMessages(4)
            .peerQueueBytes(2L * RelayConfig.MAX_OUTBOUND_RPC_BYTES).maxDropsBeforeDisconnect(3).build();

    private final AtomicInteger stuck = new AtomicInteger();
    private final PeerSender sender =
            new PeerSender(CONFIG, new RelayMetrics(new SimpleMeterRegistry(), 0), stuck::incrementAndGet);
    private final HeldWrites stream = new HeldWrites();
    private final List<ByteBuf> sent = new ArrayList<>();

    @AfterEach
    void releaseWhatTheConnectionWouldHaveTaken() {
        stream.takeAll();
        sender.shutdown();
    }

    private boolean send(int bytes, Kind kind) {
        ByteBuf rpc = PooledByteBufAllocator.DEFAULT.buffer(bytes).writeZero(bytes);
        sent.add(rpc);
        return sender.send(rpc, kind);
    }

    @Test
    void messagesPastTheQueueBoundAreDroppedUntilTheConnectionTakesWhatWaits() {
        sender.opened(stream);
        for (int i = 0; i < 4; i++) {
            assertThat(send(100, Kind.MESSAGE)).isTrue();
        }
        assertThat(send(100, Kind.MESSAGE)).isFalse();
        assertThat(sent.get(4).refCnt()).as("a dropped RPC is released").isZero();
        assertThat(sender.queuedMessages()).isEqualTo(4);
        assertThat(sender.queuedBytes()).isEqualTo(400);
        assertThat(sender.drops()).isEqualTo(1);

        stream.take(1);
        assertThat(sender.queuedMessages()).isEqualTo(3);
        assertThat(send(100, Kind.MESSAGE)).isTrue();
    }

    @Test
    void theByteBoundDropsAMessageThatWouldPassIt() {
        sender.opened(stream);
        assertThat(send(RelayConfig.MAX_OUTBOUND_RPC_BYTES, Kind.MESSAGE)).isTrue();
        assertThat(send(RelayConfig.MAX_OUTBOUND_RPC_BYTES, Kind.MESSAGE)).isTrue();
        assertThat(send(1, Kind.MESSAGE)).isFalse();
        stream.take(1);
        assertThat(send(1, Kind.MESSAGE)).isTrue();
    }

    @Test
    void gossipMayFillOnlyHalfTheQueueAndControlPassesAFullOne() {
        sender.opened(stream);
        assertThat(send(100, Kind.GOSSIP)).isTrue();
        assertThat(send(100, Kind.GOSSIP)).isTrue();
        assertThat(send(100, Kind.GOSSIP)).as("gossip past half the queue").isFalse();
        assertThat(send(100, Kind.MESSAGE)).isTrue();
        assertThat(send(100, Kind.MESSAGE)).isTrue();
        assertThat(send(100, Kind.MESSAGE)).isFalse();
        assertThat(send(100, Kind.CONTROL)).as("control past the whole queue").isTrue();
        assertThat(sender.queuedMessages()).isEqualTo(5);
    }

    @Test
    void controlPassesAFullQueueByASmallAllowanceAndIsDroppedAndCountedPastIt() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        PeerSender sender = new PeerSender(CONFIG, new RelayMetrics(registry, 0), stuck::incrementAndGet);
        sender.opened(stream);
        for (int i = 0; i < 4; i++) {
            sender.send(PooledByteBufAllocator.DEFAULT.buffer(100).writeZero(100), Kind.MESSAGE);
        }
        assertThat(sender.isFull()).isTrue();
        for (int i = 0; i < PeerSender.CONTROL_ALLOWANCE_MESSAGES; i++) {
            assertThat(sender.send(PooledByteBufAllocator.DEFAULT.buffer(10).writeZero(10), Kind.CONTROL)).isTrue();
        }
        ByteBuf past = PooledByteBufAllocator.DEFAULT.buffer(10).writeZero(10);
        assertThat(sender.send(past, Kind.CONTROL)).as("past the allowance").isFalse();
        assertThat(past.refCnt()).as("released").isZero();
        assertThat(registry.find("waku.relay.peer.drops").tag("kind", "control").counter().count()).isEqualTo(1);
        assertThat(sender.queuedMessages()).isEqualTo(4 + PeerSender.CONTROL_ALLOWANCE_MESSAGES);
        sender.shutdown();
    }

    @Test
    void theControlAllowanceInBytesIsTwoOfTheLargestRpcsBeyondTheQueueBound() {
        sender.opened(stream);
        assertThat(send((int) CONFIG.peerQueueBytes(), Kind.MESSAGE)).isTrue();
        assertThat(send(RelayConfig.MAX_OUTBOUND_RPC_BYTES, Kind.CONTROL)).isTrue();
        assertThat(send(RelayConfig.MAX_OUTBOUND_RPC_BYTES, Kind.CONTROL)).isTrue();
        assertThat(send(1, Kind.CONTROL)).isFalse();
    }

    @Test
    void anEmptyQueueTakesAControlRpcLargerThanTheBoundAndItsAllowance() {
        sender.opened(stream);
        int huge = (int) (CONFIG.peerQueueBytes() + PeerSender.CONTROL_ALLOWANCE_BYTES + 1);
        assertThat(send(huge, Kind.CONTROL)).isTrue();
        assertThat(send(1, Kind.CONTROL)).as("behind it").isFalse();
    }

    @Test
    void aPeerThatTakesNoneOfItsControlIsReportedStuckAndControlWithinTheBoundsStartsTheCountAgain() {
        sender.opened(stream);
        send(100, Kind.CONTROL);
        send(100, Kind.CONTROL);
        stream.take(2);
        int fill = 4 + PeerSender.CONTROL_ALLOWANCE_MESSAGES;
        for (int i = 0; i < fill; i++) {
            send(10, Kind.CONTROL);
        }
        send(10, Kind.CONTROL);
        send(10, Kind.CONTROL);
        assertThat(stuck).hasValue(0);
        send(10, Kind.CONTROL);
        assertThat(stuck).as("three control RPCs dropped in a row").hasValue(1);

        stream.take(fill);
        assertThat(send(10, Kind.CONTROL)).isTrue();
        send(10, Kind.MESSAGE);
        assertThat(stuck).hasValue(1);
    }

    @Test
    void aPeerIsReportedStuckWhenMeshMessagesDropInARowAndASentOneStartsTheCountAgain() {
        sender.opened(stream);
        for (int i = 0; i < 4; i++) {
            send(100, Kind.MESSAGE);
        }
        send(100, Kind.MESSAGE);
        send(100, Kind.MESSAGE);
        send(100, Kind.GOSSIP); // gossip drops do not count toward stuck
        assertThat(stuck).hasValue(0);
        send(100, Kind.MESSAGE);
        assertThat(stuck).hasValue(1);
        send(100, Kind.MESSAGE);
        assertThat(stuck).as("reported once").hasValue(1);

        stream.take(1);
        assertThat(send(100, Kind.MESSAGE)).isTrue();
        send(100, Kind.MESSAGE);
        send(100, Kind.MESSAGE);
        assertThat(stuck).as("two drops after a sent message").hasValue(1);
        send(100, Kind.MESSAGE);
        assertThat(stuck).as("the third").hasValue(2);
    }

    @Test
    void controlWrittenBeforeTheStreamOpensGoesFirstAndMessagesBeforeItAreDropped() {
        assertThat(send(10, Kind.CONTROL)).isTrue();
        assertThat(send(10, Kind.MESSAGE)).isFalse();
        assertThat(sender.isOpen()).isFalse();

        sender.opened(stream);
        send(20, Kind.MESSAGE);
        assertThat(stream.written).extracting(ByteBuf::readableBytes).containsExactly(10, 20);
    }

    @Test
    void controlWaitingForTheStreamIsReleasedWhenThePeerGoes() {
        send(10, Kind.CONTROL);
        sender.shutdown();
        assertThat(sent.get(0).refCnt()).isZero();
        assertThat(send(10, Kind.CONTROL)).as("after shutdown").isFalse();
    }

    /** A relay stream whose connection takes each write only when told. */
    private static final class HeldWrites implements Stream {
        final List<ByteBuf> written = new ArrayList<>();
        private final Deque<Promise<Void>> pending = new ArrayDeque<>();
        private final Deque<ByteBuf> held = new ArrayDeque<>();

        void take(int writes) {
            for (int i = 0; i < writes && !pending.isEmpty(); i++) {
                held.poll().release();
                pending.poll().setSuccess(null);
            }
        }

        void takeAll() {
            take(Integer.MAX_VALUE);
        }

        @Override
        public Future<Void> write(ByteBuf data) {
            Promise<Void> promise = ImmediateEventExecutor.INSTANCE.newPromise();
            written.add(data);
            held.add(data);
            pending.add(promise);
            return promise;
        }

        @Override
        public String protocol() {
            return Relay.PROTOCOL_ID;
        }

        @Override
        public PeerId remotePeer() {
            throw new UnsupportedOperationException();
        }

        @Override
        public Connection connection() {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean isOutbound() {
            return true;
        }

        @Override
        public EventExecutor executor() {
            return ImmediateEventExecutor.INSTANCE;
        }

        @Override
        public ByteBufAllocator alloc() {
            return PooledByteBufAllocator.DEFAULT;
        }

        @Override
        public boolean isWritable() {
            return true;
        }

        @Override
        public long queuedBytes() {
            return 0;
        }

        @Override
        public void pauseReading() {
        }

        @Override
        public void resumeReading() {
        }

        @Override
        public void closeWrite() {
        }

        @Override
        public void reset() {
        }

        @Override
        public boolean isOpen() {
            return true;
        }
    }
}
