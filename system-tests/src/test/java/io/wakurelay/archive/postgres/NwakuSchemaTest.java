package io.wakurelay.archive.postgres;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.archive.PostgresConfig;
import io.wakurelay.archive.ArchiveStorageException;
import io.wakurelay.testkit.PostgresServer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The schema is nwaku's as its migration 7 leaves it (the columns, keys and indexes of its tables, compared here with
 * what nwaku's scripts make; ADR 0061 says how the whole dump was compared once), made once under the migration lock
 * however many nodes start together, and a database of another version is refused saying what to do.
 */
@Tag("process")
class NwakuSchemaTest {
    @RegisterExtension
    static final PostgresServer postgres = new PostgresServer();

    @Test
    void anEmptyDatabaseGetsNwakusTablesKeysAndIndexesAtVersion7() {
        PostgresConfig config = PostgresFixture.config(postgres);
        String db = config.database();
        PostgresArchive.open(config, new SimpleMeterRegistry()).close();
        assertThat(lines(db, "SELECT column_name || ' ' || data_type || ' ' || is_nullable FROM information_schema.columns "
                + "WHERE table_name = 'messages' ORDER BY ordinal_position")).containsExactly(
                "pubsubtopic character varying NO", "contenttopic character varying NO", "payload character varying YES",
                "version integer NO", "id character varying NO", "messagehash character varying NO", "timestamp bigint NO",
                "meta character varying YES");
        assertThat(lines(db, "SELECT column_name || ' ' || data_type FROM information_schema.columns "
                + "WHERE table_name = 'messages_lookup' ORDER BY ordinal_position"))
                .containsExactly("timestamp bigint", "messagehash character varying");
        assertThat(lines(db, "SELECT indexname || ': ' || indexdef FROM pg_indexes WHERE tablename IN ('messages', 'messages_lookup') "
                + "ORDER BY indexname")).containsExactly(
                "idx_messages_lookup_messagehash: CREATE INDEX idx_messages_lookup_messagehash ON public.messages_lookup USING btree (messagehash)",
                "idx_messages_lookup_timestamp: CREATE INDEX idx_messages_lookup_timestamp ON public.messages_lookup USING btree (\"timestamp\")",
                "idx_messages_messagehash: CREATE INDEX idx_messages_messagehash ON ONLY public.messages USING btree (messagehash)",
                "idx_messages_timestamp: CREATE INDEX idx_messages_timestamp ON ONLY public.messages USING btree (\"timestamp\")",
                "idx_query_contenttopic: CREATE INDEX idx_query_contenttopic ON ONLY public.messages USING btree (contenttopic)",
                "idx_query_pubsubtopic: CREATE INDEX idx_query_pubsubtopic ON ONLY public.messages USING btree (pubsubtopic)",
                "messageindex: CREATE UNIQUE INDEX messageindex ON ONLY public.messages USING btree (messagehash, \"timestamp\")",
                "messageindexlookuptable: CREATE UNIQUE INDEX messageindexlookuptable ON public.messages_lookup USING btree (messagehash, \"timestamp\")");
        assertThat(lines(db, "SELECT pg_get_partkeydef('messages'::regclass)")).containsExactly("RANGE (\"timestamp\")");
        assertThat(lines(db, "SELECT version FROM version")).containsExactly("7");
        // the partitions of now and of the next hour, named as nwaku names them
        assertThat(lines(db, "SELECT count(*) FROM pg_inherits WHERE inhparent = 'messages'::regclass")).containsExactly("2");
        assertThat(lines(db, "SELECT relname FROM pg_class c JOIN pg_inherits i ON c.oid = i.inhrelid "
                + "WHERE i.inhparent = 'messages'::regclass"))
                .allSatisfy(name -> assertThat(name).matches("messages_\\d+_\\d+"));
    }

    @Test
    void nodesStartingTogetherOnAnEmptyDatabaseMakeTheSchemaOnce() {
        PostgresConfig config = PostgresFixture.config(postgres);
        List<CompletableFuture<PostgresArchive>> opening = List.of(
                CompletableFuture.supplyAsync(() -> PostgresArchive.open(config, new SimpleMeterRegistry())),
                CompletableFuture.supplyAsync(() -> PostgresArchive.open(config, new SimpleMeterRegistry())),
                CompletableFuture.supplyAsync(() -> PostgresArchive.open(config, new SimpleMeterRegistry())));
        opening.forEach(f -> f.join().close());
        assertThat(lines(config.database(), "SELECT version FROM version")).containsExactly("7");
    }

    @Test
    void aDatabaseOfANewerSchemaIsRefusedSayingWhatToDo() {
        PostgresConfig config = PostgresFixture.config(postgres);
        PostgresArchive.open(config, new SimpleMeterRegistry()).close();
        postgres.psql(config.database(), "UPDATE version SET version = 8");
        assertThatThrownBy(() -> PostgresArchive.open(config, new SimpleMeterRegistry()))
                .isInstanceOf(ArchiveStorageException.class)
                .hasMessageContaining("schema is version 8, newer than the 7 this node knows")
                .hasMessageContaining("upgrade this node");
    }

    @Test
    void aDatabaseOfAnOlderNwakuSchemaIsRefusedSayingWhatToDo() {
        PostgresConfig config = PostgresFixture.config(postgres);
        postgres.psql(config.database(), "CREATE TABLE version (version INTEGER NOT NULL); INSERT INTO version VALUES (6)");
        assertThatThrownBy(() -> PostgresArchive.open(config, new SimpleMeterRegistry()))
                .isInstanceOf(ArchiveStorageException.class)
                .hasMessageContaining("nwaku's version 6, older than 7")
                .hasMessageContaining("start a current nwaku on it once");
    }

    private static List<String> lines(String database, String sql) {
        return postgres.psql(database, sql).lines().filter(l -> !l.isBlank()).toList();
    }
}
