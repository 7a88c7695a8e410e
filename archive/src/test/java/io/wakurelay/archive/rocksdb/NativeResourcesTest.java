package io.wakurelay.archive.rocksdb;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.archive.ArchiveClosedException;
import io.wakurelay.archive.ArchiveFixture;
import io.wakurelay.archive.RetentionPolicy;
import io.wakurelay.archive.StoreQuery;
import io.wakurelay.archive.TestEnvelopes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.AbstractImmutableNativeReference;
import org.rocksdb.AbstractNativeReference;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class NativeResourcesTest {
    @TempDir
    Path dir;

    @Test
    void closeReleasesEveryRocksDbObjectAndEveryMeter() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        RocksArchive archive = RocksArchive.open(RocksFixture.config(dir).withCore(c -> c.retention(new RetentionPolicy.Capacity(5))), registry);
        ArchiveFixture.writeAll(archive, TestEnvelopes.sequence(0, 50, 100));
        archive.query(StoreQuery.builder().includeData(true).build());
        archive.query(StoreQuery.builder().pubsubTopic(TestEnvelopes.PUBSUB).contentTopics(TestEnvelopes.CONTENT).build());
        archive.applyRetention();
        List<AbstractNativeReference> natives = archive.database().nativeObjects();
        assertThat(natives).hasSizeGreaterThan(10);
        assertThat(registry.getMeters()).isNotEmpty();

        archive.close();

        assertThat(natives).allSatisfy(n -> assertThat(((AbstractImmutableNativeReference) n).isOwningHandle())
                .as("%s released", n.getClass().getSimpleName()).isFalse());
        assertThat(registry.getMeters()).as("meters removed").isEmpty();
        assertThat(archive.healthy()).isFalse();
        archive.close();
    }

    @Test
    void aClosedArchiveRefusesQueriesAndRetention() {
        RocksArchive archive = RocksFixture.open(dir);
        archive.close();
        assertThatThrownBy(() -> archive.query(StoreQuery.builder().build())).isInstanceOf(ArchiveClosedException.class);
        assertThatThrownBy(archive::applyRetention).isInstanceOf(ArchiveClosedException.class);
    }

    @Test
    void gaugesReadNothingOnceClosed() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        RocksArchive archive = RocksArchive.open(RocksFixture.config(dir), registry);
        ArchiveDatabase database = archive.database();
        assertThat(database.aggregatedProperty("rocksdb.cur-size-all-mem-tables")).isNotNaN();
        archive.close();
        assertThat(database.aggregatedProperty("rocksdb.cur-size-all-mem-tables")).isNaN();
        assertThat(database.blockCacheUsage()).isNaN();
    }
}
