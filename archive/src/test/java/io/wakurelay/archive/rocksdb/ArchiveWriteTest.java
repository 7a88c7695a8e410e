package io.wakurelay.archive.rocksdb;

import io.netty.buffer.ByteBufUtil;
import io.wakurelay.archive.CommittedBatch;
import io.wakurelay.archive.StoreQuery;
import io.wakurelay.archive.StoreResponse;
import io.wakurelay.archive.StoredMessage;
import io.wakurelay.archive.TestEnvelopes;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.MessageHash;
import io.wakurelay.protocol.proto.WakuMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.wakurelay.archive.ArchiveFixture.allPages;
import static io.wakurelay.archive.ArchiveFixture.stored;
import static io.wakurelay.archive.ArchiveFixture.writeAll;
import static org.assertj.core.api.Assertions.assertThat;

class ArchiveWriteTest {
    @TempDir
    Path dir;

    @Test
    void storesTheMessageBytesExactlyAsReceivedAndAcknowledgesEveryBatch() throws Exception {
        List<Envelope> envelopes = TestEnvelopes.sequence(0, 300, 200);
        List<byte[]> received = envelopes.stream().map(e -> ByteBufUtil.getBytes(e.messageBytes())).toList();
        List<MessageHash> hashes = envelopes.stream().map(Envelope::hash).toList();
        try (RocksArchive archive = RocksFixture.open(dir)) {
            List<CommittedBatch> batches = writeAll(archive, envelopes);

            assertThat(stored(batches)).containsExactlyElementsOf(hashes);
            assertThat(batches).allSatisfy(b -> assertThat(b.envelopes()).isBetween(1, 64));
            assertThat(envelopes).allSatisfy(e -> assertThat(e.refCnt()).as("released").isZero());

            List<StoredMessage> all = allPages(archive, StoreQuery.builder().includeData(true).pageSize(100).build());
            assertThat(all).extracting(StoredMessage::hash).containsExactlyElementsOf(hashes);
            for (int i = 0; i < all.size(); i++) {
                assertThat(all.get(i).message().toByteArray()).isEqualTo(received.get(i));
                assertThat(all.get(i).pubsubTopic()).isEqualTo(TestEnvelopes.PUBSUB);
                assertThat(all.get(i).timestamp()).isEqualTo(TestEnvelopes.BASE_TIME + i);
            }
            assertThat(archive.messageCount()).isEqualTo(300);
            assertThat(archive.storedBytes()).isEqualTo(received.stream().mapToLong(b -> b.length).sum());
            assertThat(archive.pendingMessages()).isZero();
        }
    }

    @Test
    void aMessageThatArrivedInSeveralBuffersIsStoredWhole() {
        // growing and shrinking sizes: the buffer the writer gathers such messages in grows once and is reused
        int[] sizes = {70_000, 150_000, 20_000, 100_000, 149_000};
        List<Envelope> envelopes = new java.util.ArrayList<>();
        for (int i = 0; i < sizes.length; i++) {
            envelopes.add(TestEnvelopes.composite(i, sizes[i], 3));
        }
        assertThat(envelopes).allSatisfy(e -> assertThat(e.messageBytes().nioBufferCount()).isGreaterThan(1));
        List<byte[]> received = envelopes.stream().map(e -> ByteBufUtil.getBytes(e.messageBytes())).toList();
        List<MessageHash> hashes = envelopes.stream().map(Envelope::hash).toList();
        try (RocksArchive archive = RocksFixture.open(dir)) {
            assertThat(stored(writeAll(archive, envelopes))).containsExactlyElementsOf(hashes);
            assertThat(envelopes).allSatisfy(e -> assertThat(e.refCnt()).as("released").isZero());
            List<StoredMessage> all = allPages(archive, StoreQuery.builder().includeData(true).pageSize(100).build());
            assertThat(all).extracting(StoredMessage::hash).containsExactlyElementsOf(hashes);
            for (int i = 0; i < all.size(); i++) {
                assertThat(all.get(i).message().toByteArray()).isEqualTo(received.get(i));
            }
        }
    }

    @Test
    void duplicatesWithinABatchAndAgainstTheStoreAreCountedNotStored() {
        try (RocksArchive archive = RocksFixture.open(dir)) {
            List<CommittedBatch> first = writeAll(archive, List.of(
                    TestEnvelopes.envelope(1, 50, TestEnvelopes.BASE_TIME),
                    TestEnvelopes.envelope(1, 50, TestEnvelopes.BASE_TIME),
                    TestEnvelopes.envelope(2, 50, TestEnvelopes.BASE_TIME)));
            assertThat(stored(first)).hasSize(2);
            assertThat(first.stream().mapToInt(CommittedBatch::duplicates).sum()).isEqualTo(1);

            List<Envelope> again = List.of(TestEnvelopes.envelope(1, 50, TestEnvelopes.BASE_TIME),
                    TestEnvelopes.envelope(2, 50, TestEnvelopes.BASE_TIME));
            List<CommittedBatch> second = writeAll(archive, again);
            assertThat(stored(second)).isEmpty();
            assertThat(second.stream().mapToInt(CommittedBatch::duplicates).sum()).isEqualTo(2);
            assertThat(again).allSatisfy(e -> assertThat(e.refCnt()).isZero());
            assertThat(archive.messageCount()).isEqualTo(2);
        }
    }

    @Test
    void theFirstCopyWinsWhenTwoEncodingsShareAHash() {
        // version is not hashed: two different encodings, one hash
        WakuMessage plain = TestEnvelopes.payload(5, 40);
        WakuMessage versioned = plain.toBuilder().setVersion(7).build();
        try (RocksArchive archive = RocksFixture.open(dir)) {
            writeAll(archive, List.of(TestEnvelopes.encode(TestEnvelopes.PUBSUB, plain)));
            List<CommittedBatch> second = writeAll(archive, List.of(TestEnvelopes.encode(TestEnvelopes.PUBSUB, versioned)));
            assertThat(second.get(0).duplicates()).isEqualTo(1);
            StoredMessage kept = archive.query(StoreQuery.builder().includeData(true).build()).messages().get(0);
            assertThat(kept.message()).isEqualTo(plain);
        }
    }

    @Test
    void ephemeralMessagesAreCountedButNotArchived() {
        try (RocksArchive archive = RocksFixture.open(dir)) {
            List<Envelope> envelopes = List.of(TestEnvelopes.ephemeral(1), TestEnvelopes.envelope(2, 10, TestEnvelopes.BASE_TIME), TestEnvelopes.ephemeral(3));
            List<CommittedBatch> batches = writeAll(archive, envelopes);
            assertThat(batches.stream().mapToInt(CommittedBatch::ephemeralSkipped).sum()).isEqualTo(2);
            assertThat(stored(batches)).containsExactly(envelopes.get(1).hash());
            assertThat(archive.messageCount()).isEqualTo(1);
            assertThat(envelopes).allSatisfy(e -> assertThat(e.refCnt()).isZero());
        }
    }

    @Test
    void aMessageWithoutTimestampIsIndexedAtItsReceiveTime() {
        Envelope envelope = TestEnvelopes.withoutTimestamp(9);
        long receivedAt = envelope.receivedAtNanos();
        MessageHash hash = envelope.hash();
        try (RocksArchive archive = RocksFixture.open(dir)) {
            writeAll(archive, List.of(envelope));
            StoreResponse page = archive.query(StoreQuery.builder().startTime(receivedAt).endTime(receivedAt).includeData(true).build());
            assertThat(page.messages()).singleElement().satisfies(m -> {
                assertThat(m.hash()).isEqualTo(hash);
                assertThat(m.timestamp()).isEqualTo(receivedAt);
                assertThat(m.message().hasTimestamp()).isFalse();
            });
        }
    }

    @Test
    void aBatchThatStoresNothingIsStillAcknowledgedWithoutAWrite() {
        try (RocksArchive archive = RocksFixture.open(dir)) {
            List<CommittedBatch> batches = writeAll(archive, List.of(TestEnvelopes.ephemeral(1)));
            assertThat(batches).singleElement().satisfies(b -> {
                assertThat(b.stored()).isEmpty();
                assertThat(b.ephemeralSkipped()).isEqualTo(1);
            });
        }
    }

    @Test
    void sequentialWriteStreamsEachGetTheirAcknowledgements() {
        try (RocksArchive archive = RocksFixture.open(dir)) {
            List<MessageHash> all = new ArrayList<>();
            for (int round = 0; round < 3; round++) {
                all.addAll(stored(writeAll(archive, TestEnvelopes.sequence(round * 100, 100, 20))));
            }
            assertThat(all).hasSize(300).doesNotHaveDuplicates();
            assertThat(archive.messageCount()).isEqualTo(300);
        }
    }
}
