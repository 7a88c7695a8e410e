package io.wakurelay.testkit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Tag("process")
class PostgresServerTest {
    @RegisterExtension
    static final PostgresServer postgres = new PostgresServer();

    @Test
    void aFreshDatabaseAnswersWithThePasswordAndSurvivesACrashOfTheServer() {
        String db = postgres.freshDatabase();
        postgres.psql(db, "CREATE TABLE t (x int); INSERT INTO t VALUES (42)");
        postgres.stopServer("immediate");
        assertThatThrownBy(() -> postgres.psql(db, "SELECT 1")).isInstanceOf(IllegalStateException.class);
        postgres.startServer();
        assertThat(postgres.psql(db, "SELECT x FROM t").trim()).isEqualTo("42");
        assertThat(postgres.psql(db, "SHOW lc_collate").trim()).isEqualTo("C");
    }
}
