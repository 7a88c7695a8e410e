package io.wakurelay.archive;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBufUtil;
import io.wakurelay.protocol.Envelope;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Messages of 4 KiB and more live in RocksDB's blob files; smaller ones stay in the SSTs. */
class BlobStorageTest {
    @TempDir
    Path dir;

    @Test
    void largeMessagesGoToBlobFilesAndReadBackExactly() throws Exception {
        List<Envelope> envelopes = new ArrayList<>();
        long largeBytes = 0;
        for (int i = 0; i < 40; i++) {
            Envelope e = TestEnvelopes.envelope(i, i % 2 == 0 ? 30_000 : 200, TestEnvelopes.BASE_TIME + i);
            if (e.messageSize() >= ArchiveDatabase.MIN_BLOB_SIZE) {
                largeBytes += e.messageSize();
            }
            envelopes.add(e);
        }
        List<byte[]> received = envelopes.stream().map(e -> ByteBufUtil.getBytes(e.messageBytes())).toList();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (MessageArchive archive = MessageArchive.open(ArchiveFixture.config(dir), registry)) {
            ArchiveFixture.writeAll(archive, envelopes);
            archive.flush();

            double blobBytes = registry.get("waku.rocksdb.blob.bytes").gauge().value();
            assertThat(blobBytes).isGreaterThanOrEqualTo(largeBytes).isLessThan(largeBytes * 1.05);
            try (Stream<Path> files = Files.list(dir)) {
                assertThat(files.filter(p -> p.toString().endsWith(".blob"))).isNotEmpty();
            }
            List<StoredMessage> all = ArchiveFixture.allPages(archive, StoreQuery.builder().includeData(true).pageSize(100).build());
            for (int i = 0; i < all.size(); i++) {
                assertThat(all.get(i).message().toByteArray()).isEqualTo(received.get(i));
            }
            assertThat(registry.get("waku.rocksdb.live.sst.bytes").gauge().value()).isPositive();
        }
    }
}
