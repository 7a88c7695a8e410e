package io.wakurelay.archive;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StoreDbUrlTest {
    @Test
    void anEmptyUrlIsTheEmbeddedStoreInTheDefaultDirectory() {
        assertThat(StoreDbUrl.parse("")).isEqualTo(new StoreDbUrl.RocksDb(null));
        assertThat(StoreDbUrl.parse(null)).isEqualTo(new StoreDbUrl.RocksDb(null));
    }

    @Test
    void aRocksDbUrlNamesTheDirectory() {
        assertThat(StoreDbUrl.parse("rocksdb://data/store")).isEqualTo(new StoreDbUrl.RocksDb(Path.of("data/store")));
        assertThat(StoreDbUrl.parse("rocksdb:///var/lib/waku")).isEqualTo(new StoreDbUrl.RocksDb(Path.of("/var/lib/waku")));
        assertThatThrownBy(() -> StoreDbUrl.parse("rocksdb://")).hasMessageContaining("needs a directory");
    }

    @Test
    void aPostgresUrlAsNwakuTakesItGivesTheServerTheDatabaseAndTheCredentials() {
        StoreDbUrl.Postgres pg = (StoreDbUrl.Postgres) StoreDbUrl.parse("postgres://waku:s3cr%40t@db.example:15432/messages");
        assertThat(pg.host()).isEqualTo("db.example");
        assertThat(pg.port()).isEqualTo(15432);
        assertThat(pg.database()).isEqualTo("messages");
        assertThat(pg.user()).isEqualTo("waku");
        assertThat(pg.password()).isEqualTo("s3cr@t");
        assertThat(StoreDbUrl.parse("postgresql://u@h/d")).isEqualTo(new StoreDbUrl.Postgres("h", 5432, "d", "u", ""));
    }

    @Test
    void thePasswordIsNeverShownNorQuotedInAnError() {
        StoreDbUrl pg = StoreDbUrl.parse("postgres://waku:hunter2@db:5432/messages");
        assertThat(pg.toString()).doesNotContain("hunter2").contains("waku:***@db:5432/messages");
        PostgresConfig config = ((StoreDbUrl.Postgres) pg).applyTo(PostgresConfig.builder()).build();
        assertThat(config.toString()).doesNotContain("hunter2").contains("password set");
        assertThat(config.password()).isEqualTo("hunter2");
        assertThatThrownBy(() -> StoreDbUrl.parse("postgres://waku:hun ter2@db:5432/messages"))
                .message().doesNotContain("hun ter2");
        assertThatThrownBy(() -> StoreDbUrl.parse("postgres://waku:hunter2@db:5432/messages?sslmode=off"))
                .message().doesNotContain("hunter2");
    }

    @Test
    void sqliteIsRefusedSayingWhatIsSupported() {
        assertThatThrownBy(() -> StoreDbUrl.parse("sqlite://store.sqlite3"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sqlite is not supported")
                .hasMessageContaining("rocksdb://<dir>")
                .hasMessageContaining("postgres://user:password@host:port/database");
        assertThatThrownBy(() -> StoreDbUrl.parse("mysql://x@y/z")).hasMessageContaining("unknown store database scheme 'mysql'");
        assertThatThrownBy(() -> StoreDbUrl.parse("/var/lib/waku")).hasMessageContaining("needs a scheme");
    }

    @Test
    void aPostgresUrlWithoutUserHostOrOneDatabaseIsRefused() {
        assertThatThrownBy(() -> StoreDbUrl.parse("postgres://db:5432/messages")).hasMessageContaining("names no user");
        assertThatThrownBy(() -> StoreDbUrl.parse("postgres://u:p@db:5432/")).hasMessageContaining("must name one database");
        assertThatThrownBy(() -> StoreDbUrl.parse("postgres://u:p@db:5432/a/b")).hasMessageContaining("must name one database");
    }

    @Test
    void thePostgresSettingsAreBoundedAndNamedWhenWrong() {
        assertThatThrownBy(() -> PostgresConfig.builder().maxConnections(2).build()).hasMessageContaining("connections must be 3..1000");
        assertThatThrownBy(() -> PostgresConfig.builder().statementTimeout(Duration.ofMillis(10)).build())
                .hasMessageContaining("statement timeout must be at least 250 ms");
        assertThatThrownBy(() -> PostgresConfig.builder().startWait(Duration.ofSeconds(-1)).build())
                .hasMessageContaining("must not be negative");
        assertThatThrownBy(() -> PostgresConfig.builder().port(0).build()).hasMessageContaining("port must be 1..65535");
    }
}
