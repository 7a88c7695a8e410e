package io.wakurelay.archive;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ArchiveConfigTest {
    private final ArchiveConfig defaults = ArchiveConfig.defaults(Path.of("data"));

    @Test
    void defaultsAreTheDocumentedOnes() {
        assertThat(defaults.retention()).isEqualTo(RetentionPolicy.parse("time:172800"));
        assertThat(defaults.durability()).isEqualTo(Durability.WAL);
        assertThat(defaults.maxBatchMessages()).isEqualTo(64);
        assertThat(defaults.maxBatchDelay()).as("RocksDB commits a partial batch at once (ADR 0082)").isZero();
        assertThat(defaults.withPostgres(PostgresConfig.DEFAULTS).maxBatchDelay()).isEqualTo(Duration.ofMillis(5));
        assertThat(defaults.withPostgres(null)).isSameAs(defaults);
        assertThat(defaults.maxPendingMessages()).isEqualTo(256);
        assertThat(defaults.blockCacheBytes()).isEqualTo(128L << 20);
        assertThat(defaults.writeBufferBytes()).isEqualTo(64L << 20);
        assertThat(defaults.retentionInterval()).isEqualTo(Duration.ofMinutes(5));
        assertThat(defaults.writeRateBytes()).as("no limit").isZero();
    }

    @Test
    void refusesOutOfRangeValuesNamingTheField() {
        assertThatThrownBy(() -> defaults.toBuilder().maxBatchMessages(0).maxBatchDelay(Duration.ZERO).maxPendingMessages(10).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("maxBatchMessages must be 1..10000");
        assertThatThrownBy(() -> defaults.toBuilder().maxBatchMessages(100).maxBatchDelay(Duration.ofMillis(5)).maxPendingMessages(99).build())
                .hasMessageStartingWith("maxPendingMessages must be maxBatchMessages (100)");
        assertThatThrownBy(() -> defaults.toBuilder().maxBatchMessages(100).maxBatchDelay(Duration.ofMillis(-1)).maxPendingMessages(200).build())
                .hasMessageStartingWith("maxBatchDelay must be 0..10 s");
        assertThatThrownBy(() -> defaults.toBuilder().blockCacheBytes(64L << 20).writeBufferBytes(64L << 20).build())
                .hasMessageStartingWith("blockCacheBytes must be at least twice writeBufferBytes");
        assertThatThrownBy(() -> defaults.toBuilder().blockCacheBytes(64L << 20).writeBufferBytes(1000).build())
                .hasMessageStartingWith("writeBufferBytes must be at least 1 MiB");
        assertThatThrownBy(() -> defaults.toBuilder().flushInterval(Duration.ofMinutes(2)).build())
                .hasMessageStartingWith("flushInterval must be 0..60 s");
        assertThatThrownBy(() -> defaults.toBuilder().retentionInterval(Duration.ZERO).build())
                .hasMessageStartingWith("retentionInterval must be positive");
        assertThatThrownBy(() -> new ArchiveConfig(null, new RetentionPolicy.None(), Durability.WAL, Duration.ZERO, 1, Duration.ZERO, 1,
                128L << 20, 64L << 20, Duration.ofMinutes(1), 0, null, true)).isInstanceOf(NullPointerException.class).hasMessage("dataDir");
        assertThatThrownBy(() -> defaults.toBuilder().writeRateBytes(512 * 1024).build())
                .hasMessageStartingWith("writeRateBytes must be 0 (no limit) or at least 1 MiB per second");
        assertThatThrownBy(() -> defaults.toBuilder().postgres(PostgresConfig.DEFAULTS).maxBatchMessages(8192)
                .maxPendingMessages(8192).build()).hasMessageStartingWith("maxBatchMessages must be at most 8191 with PostgreSQL");
        assertThat(defaults.toBuilder().postgres(PostgresConfig.DEFAULTS).maxBatchMessages(8191).maxPendingMessages(8191)
                .build().maxBatchMessages()).isEqualTo(8191);
    }

    @Test
    void aZeroBatchDelayIsAllowed() {
        assertThat(defaults.toBuilder().maxBatchMessages(1).maxBatchDelay(Duration.ZERO).maxPendingMessages(1).build().maxBatchDelay()).isZero();
    }

    @Test
    void durabilityIsParsedFromTheNamesTheFlagUsesAndABadOneNamesTheChoices() {
        assertThat(Durability.parse("wal")).isEqualTo(Durability.WAL);
        assertThat(Durability.parse("WAL-sync")).isEqualTo(Durability.WAL_SYNC);
        assertThat(Durability.parse(" flush ")).isEqualTo(Durability.FLUSH);
        assertThatThrownBy(() -> Durability.parse("sync")).hasMessage("durability must be one of wal, wal-sync, flush, was 'sync'");
    }
}
