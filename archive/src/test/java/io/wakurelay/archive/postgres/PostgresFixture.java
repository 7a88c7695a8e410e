package io.wakurelay.archive.postgres;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.archive.MessageArchive;
import io.wakurelay.archive.PostgresConfig;
import io.wakurelay.archive.RetentionPolicy;
import io.wakurelay.testkit.PostgresServer;

import java.time.Duration;

/** PostgreSQL archives on a test's {@link PostgresServer}, each in a database of its own unless told otherwise. */
public final class PostgresFixture {
    private PostgresFixture() {
    }

    /** The same batching as the RocksDB fixture's, retention none, no timestamp window, no wait at start, a small pool. */
    public static PostgresConfig config(PostgresServer server, String database) {
        return postgres(server, database).withCore(c -> c.retention(new RetentionPolicy.None()).timestampWindow(Duration.ZERO)
                .maxBatchMessages(64).maxBatchDelay(Duration.ofMillis(2)).maxPendingMessages(256));
    }

    /** The database of {@code server}, with the PostgreSQL defaults of {@link PostgresConfig#DEFAULTS} otherwise. */
    private static PostgresConfig postgres(PostgresServer server, String database) {
        return PostgresConfig.builder().host(PostgresServer.HOST).port(server.port()).database(database)
                .user(PostgresServer.USER).password(PostgresServer.PASSWORD).maxConnections(8)
                .statementTimeout(Duration.ofSeconds(10)).connectTimeout(Duration.ofSeconds(2)).startWait(Duration.ZERO).build();
    }

    public static PostgresConfig config(PostgresServer server) {
        return config(server, server.freshDatabase());
    }

    public static PostgresArchive open(PostgresServer server) {
        return PostgresArchive.open(config(server), new SimpleMeterRegistry());
    }

    /** Counts the stored messages now (the archive counts them every minute by itself). */
    public static long count(MessageArchive archive) {
        ((PostgresArchive) archive).recount();
        return archive.messageCount();
    }
}
