package io.wakurelay.archive.rocksdb;

import io.wakurelay.archive.ArchiveFixture;
import io.wakurelay.archive.ArchiveStorageException;
import io.wakurelay.archive.CommittedBatch;
import io.wakurelay.archive.StoreQuery;
import io.wakurelay.archive.TestEnvelopes;
import io.wakurelay.protocol.MessageHash;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;

import java.nio.file.Path;
import java.util.List;

import static io.wakurelay.archive.ArchiveFixture.allPages;
import static io.wakurelay.archive.ArchiveFixture.hashes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RestartTest {
    @TempDir
    Path dir;

    @Test
    void aReopenedArchiveSeesEverythingWrittenBeforeWithoutAScan() {
        List<MessageHash> written;
        long bytes;
        try (RocksArchive archive = RocksFixture.open(dir)) {
            written = ArchiveFixture.stored(ArchiveFixture.writeAll(archive, TestEnvelopes.sequence(0, 500, 300)));
            bytes = archive.storedBytes();
        }
        try (RocksArchive reopened = RocksFixture.open(dir)) {
            // the counters come from the counters family, not from counting
            assertThat(reopened.messageCount()).isEqualTo(500);
            assertThat(reopened.storedBytes()).isEqualTo(bytes);
            assertThat(hashes(allPages(reopened, StoreQuery.builder().pageSize(100).build()))).containsExactlyElementsOf(written);
            assertThat(hashes(allPages(reopened, StoreQuery.builder().pubsubTopic(TestEnvelopes.PUBSUB)
                    .contentTopics(TestEnvelopes.CONTENT).pageSize(100).build()))).containsExactlyElementsOf(written);

            // and it keeps deduplicating against what it had
            List<CommittedBatch> again = ArchiveFixture.writeAll(reopened, TestEnvelopes.sequence(490, 20, 300));
            assertThat(ArchiveFixture.stored(again)).hasSize(10);
            assertThat(reopened.messageCount()).isEqualTo(510);
        }
    }

    @Test
    void aDirectoryInUseByAnotherArchiveIsRefused() {
        try (RocksArchive archive = RocksFixture.open(dir)) {
            assertThatThrownBy(() -> RocksFixture.open(dir))
                    .isInstanceOf(ArchiveStorageException.class)
                    .hasMessageContaining("cannot open the archive in " + dir);
            assertThat(archive.healthy()).isTrue();
        }
    }

    @Test
    void aRocksDbThatIsNotAnArchiveIsRefused() throws Exception {
        try (Options options = new Options().setCreateIfMissing(true); RocksDB other = RocksDB.open(options, dir.toString())) {
            other.put("key".getBytes(), "value".getBytes());
        }
        assertThatThrownBy(() -> RocksFixture.open(dir))
                .isInstanceOf(ArchiveStorageException.class)
                .hasMessageContaining("is not a wakurelay archive of schema 2 (found no schema marker)");
    }
}
