package io.wakurelay.archive;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ArchiveConfigTest {
    private final RocksConfig defaults = RocksConfig.defaults(Path.of("data"));

    @Test
    void defaultsAreTheDocumentedOnes() {
        assertThat(defaults.core().retention()).isEqualTo(RetentionPolicy.parse("time:172800"));
        assertThat(defaults.durability()).isEqualTo(Durability.WAL);
        assertThat(defaults.core().maxBatchMessages()).isEqualTo(64);
        assertThat(defaults.core().maxBatchDelay()).as("RocksDB commits a partial batch at once (ADR 0082)").isZero();
        assertThat(PostgresConfig.DEFAULTS.core().maxBatchDelay()).isEqualTo(Duration.ofMillis(5));
        assertThat(PostgresConfig.coreFrom(defaults.core())).as("the node's settings moved to PostgreSQL keep all but the delay")
                .isEqualTo(defaults.core().toBuilder().maxBatchDelay(PostgresConfig.BATCH_DELAY).build());
        assertThat(defaults.core().maxPendingMessages()).isEqualTo(256);
        assertThat(defaults.blockCacheBytes()).isEqualTo(128L << 20);
        assertThat(defaults.writeBufferBytes()).isEqualTo(64L << 20);
        assertThat(defaults.core().retentionInterval()).isEqualTo(Duration.ofMinutes(5));
        assertThat(defaults.writeRateBytes()).as("no limit").isZero();
        assertThat(defaults.core().timestampWindow()).as("nwaku's MaxMessageTimestampVariance").isEqualTo(Duration.ofSeconds(20));
    }

    @Test
    void eachBackendHasItsOwnRecordAndItsName() {
        ArchiveConfig rocks = defaults;
        ArchiveConfig postgres = PostgresConfig.DEFAULTS;
        assertThat(rocks.backend()).isEqualTo("rocksdb");
        assertThat(postgres.backend()).isEqualTo("postgres");
        assertThat(rocks.withCore(c -> c.maxPendingMessages(512))).isInstanceOf(RocksConfig.class)
                .extracting(c -> c.core().maxPendingMessages()).isEqualTo(512);
        assertThat(postgres.withCore(c -> c.retention(new RetentionPolicy.None()))).isInstanceOf(PostgresConfig.class)
                .extracting(c -> ((PostgresConfig) c).database()).isEqualTo("postgres");
        assertThat(PostgresConfig.DEFAULTS.toString()).as("no password shown").doesNotContain("password=")
                .contains("password none");
    }

    @Test
    void refusesOutOfRangeValuesNamingTheField() {
        CoreConfig core = CoreConfig.DEFAULTS;
        assertThatThrownBy(() -> core.toBuilder().maxBatchMessages(0).maxBatchDelay(Duration.ZERO).maxPendingMessages(10).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("maxBatchMessages must be 1..10000");
        assertThatThrownBy(() -> core.toBuilder().maxBatchMessages(100).maxBatchDelay(Duration.ofMillis(5)).maxPendingMessages(99).build())
                .hasMessageStartingWith("maxPendingMessages must be maxBatchMessages (100)");
        assertThatThrownBy(() -> core.toBuilder().maxBatchMessages(100).maxBatchDelay(Duration.ofMillis(-1)).maxPendingMessages(200).build())
                .hasMessageStartingWith("maxBatchDelay must be 0..10 s");
        assertThatThrownBy(() -> defaults.toBuilder().blockCacheBytes(64L << 20).writeBufferBytes(64L << 20).build())
                .hasMessageStartingWith("blockCacheBytes must be at least twice writeBufferBytes");
        assertThatThrownBy(() -> defaults.toBuilder().blockCacheBytes(64L << 20).writeBufferBytes(1000).build())
                .hasMessageStartingWith("writeBufferBytes must be at least 1 MiB");
        assertThatThrownBy(() -> defaults.toBuilder().flushInterval(Duration.ofMinutes(2)).build())
                .hasMessageStartingWith("flushInterval must be 0..60 s");
        assertThatThrownBy(() -> core.toBuilder().retentionInterval(Duration.ZERO).build())
                .hasMessageStartingWith("retentionInterval must be positive");
        assertThatThrownBy(() -> core.toBuilder().timestampWindow(Duration.ofSeconds(-1)).build())
                .hasMessageContaining("must not be negative");
        assertThatThrownBy(() -> new RocksConfig(core, null, Durability.WAL, Duration.ZERO, 128L << 20, 64L << 20, 0, true))
                .isInstanceOf(NullPointerException.class).hasMessage("dataDir");
        assertThatThrownBy(() -> defaults.toBuilder().writeRateBytes(512 * 1024).build())
                .hasMessageStartingWith("writeRateBytes must be 0 (no limit) or at least 1 MiB per second");
        assertThatThrownBy(() -> PostgresConfig.DEFAULTS.withCore(c -> c.maxBatchMessages(8192).maxPendingMessages(8192)))
                .hasMessageStartingWith("maxBatchMessages must be at most 8191 with PostgreSQL");
        assertThat(PostgresConfig.DEFAULTS.withCore(c -> c.maxBatchMessages(8191).maxPendingMessages(8191))
                .core().maxBatchMessages()).isEqualTo(8191);
    }

    @Test
    void aZeroBatchDelayAndAZeroTimestampWindowAreAllowed() {
        assertThat(CoreConfig.builder().maxBatchMessages(1).maxBatchDelay(Duration.ZERO).maxPendingMessages(1).build().maxBatchDelay()).isZero();
        assertThat(CoreConfig.builder().timestampWindow(Duration.ZERO).build().timestampWindow()).as("0: every timestamp").isZero();
    }

    @Test
    void durabilityIsParsedFromTheNamesTheFlagUsesAndABadOneNamesTheChoices() {
        assertThat(Durability.parse("wal")).isEqualTo(Durability.WAL);
        assertThat(Durability.parse("WAL-sync")).isEqualTo(Durability.WAL_SYNC);
        assertThat(Durability.parse(" flush ")).isEqualTo(Durability.FLUSH);
        assertThatThrownBy(() -> Durability.parse("sync")).hasMessage("durability must be one of wal, wal-sync, flush, was 'sync'");
    }
}
