package io.wakurelay.relay;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.wakurelay.protocol.PathCounters;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/** What a fingerprint may and may not decide: it nominates a cached message, the bytes decide. */
class MessageIdsTest {
    private final PathCounters counters = new PathCounters();
    private final RouterEventsTest.RecordedEvents events = new RouterEventsTest.RecordedEvents();
    private final MessageCache cache = new MessageCache(5, 3, 64L << 20);
    private final MessageIds ids = new MessageIds(counters, events, cache, this);
    private final List<ByteBuf> buffers = new ArrayList<>();

    @AfterEach
    void release() {
        cache.clear();
        buffers.forEach(ByteBuf::release);
    }

    private ByteBuf bytes(int size, int seed) {
        byte[] b = new byte[size];
        new SplittableRandom(seed).nextBytes(b);
        ByteBuf buf = Unpooled.directBuffer(size).writeBytes(b);
        buffers.add(buf);
        return buf;
    }

    /** The same bytes in pieces of {@code piece} bytes, as a message sliced across Noise messages arrives. */
    private ByteBuf inPieces(ByteBuf whole, int piece) {
        CompositeByteBuf c = Unpooled.compositeBuffer(Integer.MAX_VALUE);
        for (int at = 0; at < whole.readableBytes(); at += piece) {
            c.addComponent(true, whole.retainedSlice(at, Math.min(piece, whole.readableBytes() - at)));
        }
        buffers.add(c);
        return c;
    }

    /** Caches {@code message} as the router does (a header, then the message) under its SHA-256 id, and remembers it. */
    private MessageId relayed(ByteBuf message) {
        MessageId id = ids.sha256(message);
        ByteBuf header = Unpooled.directBuffer(4).writeBytes(new byte[] {1, 2, 3});
        CompositeByteBuf rpc = Unpooled.compositeBuffer(2).addComponent(true, header).addComponent(true, message.retainedSlice());
        cache.put(id, "topic", rpc);
        synchronized (this) {
            ids.remember(MessageIds.fingerprint(message), id);
        }
        return id;
    }

    @Test
    void bytesAreComparedWhateverPiecesTheyArriveIn() {
        ByteBuf whole = bytes(70_000, 1);
        assertThat(MessageIds.sameBytes(inPieces(whole, 65_519), inPieces(whole, 4_096))).isTrue();
        ByteBuf changed = bytes(70_000, 1);
        changed.setByte(69_999, changed.getByte(69_999) ^ 1);
        assertThat(MessageIds.sameBytes(inPieces(whole, 65_519), inPieces(changed, 1_000))).isFalse();
        assertThat(MessageIds.sameBytes(whole, whole.slice(0, 69_999))).as("lengths differ").isFalse();
    }

    @Test
    void aCopyOfARelayedMessageTakesItsIdWithoutAHash() {
        ByteBuf message = bytes(30_000, 2);
        MessageId id = relayed(message);
        long hashed = counters.messageIds();

        ByteBuf copy = inPieces(message, 7_000);
        MessageId copyId = ids.ofCopy(new RpcReader.Message(copy, "topic", false, copy), MessageIds.fingerprint(copy));

        assertThat(copyId).isEqualTo(id);
        assertThat(counters.messageIds()).isEqualTo(hashed);
        assertThat(events.count("idByBytes")).isEqualTo(1);
    }

    /** As a sender crafting a copy whose fingerprint is a relayed message's would: it only costs a comparison. */
    @Test
    void aFingerprintThatNamesAnotherMessageIsOverruledByItsBytes() {
        ByteBuf relayedMessage = bytes(30_000, 3);
        MessageId relayedId = relayed(relayedMessage);
        ByteBuf other = bytes(30_000, 4);
        long hashed = counters.messageIds();

        MessageId otherId = ids.ofCopy(new RpcReader.Message(other, "topic", false, other), MessageIds.fingerprint(relayedMessage));

        assertThat(otherId).isNotEqualTo(relayedId).isEqualTo(ids.sha256(other));
        assertThat(counters.messageIds() - hashed).isEqualTo(2);
        assertThat(events.count("idByBytes")).isZero();
    }

    @Test
    void aMessageGoneFromTheCacheIsHashedAgain() {
        ByteBuf message = bytes(30_000, 5);
        MessageId id = relayed(message);
        for (int i = 0; i < 6; i++) {
            cache.shift(); // past historyLength heartbeats
        }
        long hashed = counters.messageIds();

        assertThat(ids.ofCopy(new RpcReader.Message(message, "topic", false, message), MessageIds.fingerprint(message))).isEqualTo(id);
        assertThat(counters.messageIds() - hashed).isEqualTo(1);
    }
}
