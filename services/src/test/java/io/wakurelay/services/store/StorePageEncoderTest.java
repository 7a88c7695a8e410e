package io.wakurelay.services.store;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.wakurelay.archive.QuerySlots;
import io.wakurelay.archive.StorePage;
import io.wakurelay.archive.StoreQuery;
import io.wakurelay.archive.StoreResponse;
import io.wakurelay.archive.StoredMessage;
import io.wakurelay.p2p.wire.Uvarint;
import io.wakurelay.protocol.MessageHash;
import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.services.Messages;
import io.wakurelay.services.ServiceNode;
import io.wakurelay.services.proto.StoreQueryResponse;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A page of the archive written as one framed response while it is read, within the response limit. */
class StorePageEncoderTest {
    private static final int LIMIT = 256 * 1024;

    private static MessageHash hash(int i) {
        byte[] b = new byte[32];
        b[31] = (byte) i;
        b[0] = 1;
        return MessageHash.of(b);
    }

    private static StoreResponse tenMessages(int payloadSize, MessageHash cursor) {
        List<StoredMessage> messages = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            WakuMessage m = Messages.message(i, payloadSize, 1000 + i, ServiceNode.CONTENT_TOPIC);
            messages.add(new StoredMessage(hash(i), 1000 + i, ServiceNode.TOPIC, m));
        }
        return new StoreResponse(messages, cursor);
    }

    /** What a peer reads: the frame's one length-prefixed response, which must be the whole frame. */
    private record Read(StoreQueryResponse response, int framedSize, boolean truncated) {
    }

    private static Read encode(StoreQuery query, StoreResponse page, int limit) {
        StorePageEncoder.Encoded encoded = StorePageEncoder.encode(PooledByteBufAllocator.DEFAULT, "r", query,
                OpenQuery.remote(page), limit);
        ByteBuf frame = encoded.frame();
        try {
            int framedSize = frame.readableBytes();
            long length = Uvarint.read(frame);
            assertThat(frame.readableBytes()).as("the prefix announces the rest of the frame").isEqualTo(length);
            byte[] body = new byte[frame.readableBytes()];
            frame.readBytes(body);
            return new Read(StoreQueryResponse.parseFrom(body), framedSize, encoded.truncated());
        } catch (com.google.protobuf.InvalidProtocolBufferException e) {
            throw new AssertionError(e);
        } finally {
            frame.release();
        }
    }

    private static List<MessageHash> hashes(StoreQueryResponse r) {
        return r.getMessagesList().stream().map(kv -> MessageHash.of(kv.getMessageHash().toByteArray())).toList();
    }

    @Test
    void aForwardPageOverTheByteLimitKeepsItsOldestMessagesAndPointsTheCursorAtTheLastKept() {
        StoreQuery q = StoreQuery.builder().pageSize(10).ascending(true).includeData(true).build();
        Read page = encode(q, tenMessages(60_000, hash(9)), LIMIT);

        assertThat(page.truncated()).isTrue();
        assertThat(hashes(page.response())).containsExactly(hash(0), hash(1), hash(2), hash(3));
        assertThat(page.response().getPaginationCursor().toByteArray()).isEqualTo(hash(3).toByteArray());
        assertThat(page.framedSize()).isLessThanOrEqualTo(LIMIT);
        assertThat(page.response().getRequestId()).isEqualTo("r");
    }

    @Test
    void aBackwardPageOverTheByteLimitKeepsItsNewestMessagesInChronologicalOrderAndPointsTheCursorAtTheOldestKept() {
        StoreQuery q = StoreQuery.builder().pageSize(10).ascending(false).includeData(true).build();
        Read page = encode(q, tenMessages(60_000, hash(0)), LIMIT);

        assertThat(page.truncated()).isTrue();
        assertThat(hashes(page.response())).containsExactly(hash(6), hash(7), hash(8), hash(9));
        assertThat(page.response().getPaginationCursor().toByteArray()).isEqualTo(hash(6).toByteArray());
        assertThat(page.framedSize()).isLessThanOrEqualTo(LIMIT);
        assertThat(page.response().getRequestId()).as("the status fields moved before the first message kept")
                .isEqualTo("r");
        assertThat(page.response().getStatusCode()).isEqualTo(200);
    }

    @Test
    void aPageThatFitsKeepsTheArchivesCursorAndAMessageLargerThanTheLimitStillGoesOutAlone() {
        StoreQuery q = StoreQuery.builder().pageSize(10).ascending(true).includeData(true).build();
        Read fits = encode(q, tenMessages(100, null), LIMIT);
        assertThat(fits.truncated()).isFalse();
        assertThat(fits.response().getMessagesCount()).isEqualTo(10);
        assertThat(fits.response().hasPaginationCursor()).isFalse();
        assertThat(fits.response().getMessages(0).getPubsubTopic()).isEqualTo(ServiceNode.TOPIC);
        assertThat(fits.response().getMessages(9).getMessage())
                .isEqualTo(Messages.message(9, 100, 1009, ServiceNode.CONTENT_TOPIC));

        Read huge = encode(q, tenMessages(300_000, null), LIMIT);
        assertThat(hashes(huge.response())).containsExactly(hash(0));
        assertThat(huge.response().getPaginationCursor().toByteArray()).isEqualTo(hash(0).toByteArray());

        StoreQuery backward = q.toBuilder().ascending(false).build();
        Read hugeBackward = encode(backward, tenMessages(300_000, null), LIMIT);
        assertThat(hashes(hugeBackward.response())).containsExactly(hash(9));
        assertThat(hugeBackward.response().getPaginationCursor().toByteArray()).isEqualTo(hash(9).toByteArray());
    }

    @Test
    void withoutDataOnlyTheHashesAreSent() {
        StoreQuery q = StoreQuery.builder().pageSize(10).ascending(true).build();
        StoreQueryResponse r = encode(q, tenMessages(100, null), LIMIT).response();
        assertThat(r.getMessages(0).hasMessage()).isFalse();
        assertThat(r.getMessages(0).hasPubsubTopic()).isFalse();
        assertThat(r.getStatusCode()).isEqualTo(200);
        assertThat(r.getStatusDesc()).isEqualTo("OK");
    }

    @Test
    void anEmptyPageIsTheStatusAndTheArchivesCursorAlone() {
        Read empty = encode(StoreQuery.builder().pageSize(10).build(), new StoreResponse(List.of(), hash(4)), LIMIT);
        assertThat(empty.response().getMessagesCount()).isZero();
        assertThat(empty.response().getStatusCode()).isEqualTo(200);
        assertThat(empty.response().getPaginationCursor().toByteArray()).isEqualTo(hash(4).toByteArray());
    }

    @Test
    void eachMessageIsReadAsItIsEncodedAndAFailedReadLeavesNoBufferBehind() {
        Iterator<StoredMessage> source = tenMessages(100, null).messages().iterator();
        AtomicInteger read = new AtomicInteger();
        StorePage failing = new StorePage() {
            @Override
            public MessageHash paginationCursor() {
                return null;
            }

            @Override
            public int size() {
                return 10;
            }

            @Override
            public long dataBytes() {
                return 10 * 200;
            }

            @Override
            public boolean hasNext() {
                return source.hasNext();
            }

            @Override
            public StoredMessage next() {
                if (read.incrementAndGet() == 5) {
                    throw new IllegalStateException("the archive failed on the fifth message");
                }
                return source.next();
            }

            @Override
            public void close() {
            }
        };
        QuerySlots slots = new QuerySlots(1);
        assertThat(slots.tryAcquire()).isTrue();
        StoreQuery q = StoreQuery.builder().pageSize(10).ascending(true).includeData(true).build();
        try (OpenQuery page = OpenQuery.local(failing, slots)) {
            assertThatThrownBy(() -> StorePageEncoder.encode(PooledByteBufAllocator.DEFAULT, "r", q, page, LIMIT))
                    .hasMessageContaining("fifth message"); // the leak detector fails the test if the frame is kept
        }
        assertThat(read.get()).as("read one at a time, up to the failure").isEqualTo(5);
        assertThat(slots.running()).as("the page's slot, freed by its close").isZero();
    }
}
