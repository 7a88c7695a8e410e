package io.wakurelay.archive.rocksdb;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBufUtil;
import io.wakurelay.archive.ArchiveFixture;
import io.wakurelay.archive.StoreQuery;
import io.wakurelay.archive.StoredMessage;
import io.wakurelay.archive.TestEnvelopes;
import io.wakurelay.protocol.Envelope;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.TickerType;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Messages are stored by (timestamp, hash) in plain SSTs, byte for byte as received; arriving in time order,
 * they are written once by a flush and moved, not rewritten, by compaction (ADR 0013).
 */
class MessageStorageTest {
    @TempDir
    Path dir;

    @Test
    void largeAndSmallMessagesReadBackExactlyFromTheirSsts() throws Exception {
        List<Envelope> envelopes = new ArrayList<>();
        long bytes = 0;
        for (int i = 0; i < 40; i++) {
            Envelope e = TestEnvelopes.envelope(i, i % 2 == 0 ? 30_000 : 200, TestEnvelopes.BASE_TIME + i);
            bytes += e.messageSize();
            envelopes.add(e);
        }
        List<byte[]> received = envelopes.stream().map(e -> ByteBufUtil.getBytes(e.messageBytes())).toList();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (RocksArchive archive = RocksArchive.open(RocksFixture.config(dir), registry)) {
            ArchiveFixture.writeAll(archive, envelopes);
            archive.flush();
            assertThat(registry.get("waku.rocksdb.live.sst.bytes").gauge().value()).isGreaterThanOrEqualTo(bytes);
            List<StoredMessage> all = ArchiveFixture.allPages(archive, StoreQuery.builder().includeData(true).pageSize(100).build());
            assertThat(all).hasSize(40);
            for (int i = 0; i < all.size(); i++) {
                assertThat(all.get(i).message().toByteArray()).isEqualTo(received.get(i));
            }
        }
    }

    @Test
    void messagesArrivingInTimeOrderAreNotRewrittenByCompaction() throws Exception {
        try (RocksArchive archive = RocksArchive.open(RocksFixture.config(dir), new SimpleMeterRegistry())) {
            ArchiveDatabase database = archive.database();
            for (int round = 0; round < 4; round++) {
                List<Envelope> envelopes = new ArrayList<>();
                for (int i = 0; i < 20; i++) {
                    int index = round * 20 + i;
                    envelopes.add(TestEnvelopes.envelope(index, 20_000, TestEnvelopes.BASE_TIME + index));
                }
                ArchiveFixture.writeAll(archive, envelopes);
                archive.flush();
            }
            long before = database.statistics().getTickerCount(TickerType.COMPACT_WRITE_BYTES);
            database.db().compactRange(database.handle(ArchiveDatabase.Family.MESSAGES));
            long rewritten = database.statistics().getTickerCount(TickerType.COMPACT_WRITE_BYTES) - before;
            assertThat(rewritten).as("bytes compaction rewrote out of ~1.6 MB stored").isLessThan(100_000);
            assertThat(ArchiveFixture.allPages(archive, StoreQuery.builder().pageSize(100).build())).hasSize(80);
        }
    }
}
