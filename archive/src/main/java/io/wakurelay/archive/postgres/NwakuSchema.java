package io.wakurelay.archive.postgres;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * nwaku's PostgreSQL schema as its latest migration (version {@value #VERSION} of
 * {@code migrations/message_store_postgres}) leaves it, so that this node serves a database an nwaku fleet wrote and
 * nwaku serves one this node wrote (docs/adr/0061):
 * <ul>
 *   <li>{@code messages}: one row per message, partitioned by range of {@code timestamp} (the message's own, Unix ns),
 *       primary key {@code (messageHash, timestamp)}; hashes, payloads and meta as lower-case hex text;</li>
 *   <li>{@code messages_lookup}: {@code (messageHash, timestamp)} of every message, not partitioned, which finds a
 *       cursor's timestamp without visiting every partition;</li>
 *   <li>{@code version}: one row, the schema version.</li>
 * </ul>
 * The partitions are made by {@link Partitions}. Migrations run at start on one connection holding nwaku's own
 * migration lock ({@code pg_advisory_lock(841886)}), so that nodes of a fleet starting together, ours or nwaku's,
 * migrate one at a time and the others find the schema done. A database of a newer version is refused; one of an older
 * nwaku version is refused too, with what to do (nwaku's own migration brings it to {@value #VERSION}).
 */
final class NwakuSchema {
    static final int VERSION = 7;
    /** nwaku's {@code acquireDatabaseLock} id, taken around its migrations. */
    static final long MIGRATION_LOCK = 841886;
    private static final Logger log = LoggerFactory.getLogger(NwakuSchema.class);

    /** Version 0 (an empty database) to {@value #VERSION} in one transaction: the end state of nwaku's seven scripts. */
    private static final List<String> CREATE = List.of(
            """
            CREATE TABLE messages (
                pubsubTopic VARCHAR NOT NULL,
                contentTopic VARCHAR NOT NULL,
                payload VARCHAR,
                version INTEGER NOT NULL,
                id VARCHAR NOT NULL,
                messageHash VARCHAR NOT NULL,
                timestamp BIGINT NOT NULL,
                meta VARCHAR DEFAULT NULL,
                CONSTRAINT messageIndex PRIMARY KEY (messageHash, timestamp)
            ) PARTITION BY RANGE (timestamp)""",
            "CREATE INDEX idx_messages_messagehash ON messages (messageHash)",
            "CREATE INDEX idx_messages_timestamp ON messages (timestamp)",
            "CREATE INDEX idx_query_pubsubtopic ON messages (pubsubTopic)",
            "CREATE INDEX idx_query_contenttopic ON messages (contentTopic)",
            """
            CREATE TABLE messages_lookup (
                timestamp BIGINT NOT NULL,
                messageHash VARCHAR NOT NULL,
                CONSTRAINT messageIndexLookupTable PRIMARY KEY (messageHash, timestamp)
            )""",
            "CREATE INDEX idx_messages_lookup_messagehash ON messages_lookup (messageHash)",
            "CREATE INDEX idx_messages_lookup_timestamp ON messages_lookup (timestamp)",
            "CREATE TABLE version (version INTEGER NOT NULL)",
            "INSERT INTO version (version) VALUES (" + VERSION + ")");

    private NwakuSchema() {
    }

    /** A database this node cannot use as it is: its schema version is not one it can serve or migrate. */
    static final class SchemaException extends Exception {
        private static final long serialVersionUID = 1L;

        SchemaException(String message) {
            super(message);
        }
    }

    /**
     * Brings the database to version {@value #VERSION}, holding the migration lock (waiting for it at most the
     * statement timeout, while another node migrates).
     *
     * @return the version the database had
     */
    static int migrate(Connection connection) throws SQLException, SchemaException {
        connection.setAutoCommit(true);
        try (Statement statement = connection.createStatement()) {
            statement.execute("SELECT pg_advisory_lock(" + MIGRATION_LOCK + ")");
            try {
                int found = currentVersion(connection);
                if (found == VERSION) {
                    return found;
                }
                if (found > VERSION) {
                    throw new SchemaException("the database's archive schema is version " + found + ", newer than the "
                            + VERSION + " this node knows (nwaku's migrations/message_store_postgres): it was migrated by a "
                            + "newer nwaku or wakurelay; upgrade this node, or point --store-message-db-url at another database");
                }
                if (found > 0) {
                    throw new SchemaException("the database's archive schema is nwaku's version " + found + ", older than "
                            + VERSION + ": start a current nwaku on it once (its migrations bring it to version " + VERSION
                            + "), or point --store-message-db-url at an empty database");
                }
                create(connection);
                log.atInfo().addKeyValue("schemaVersion", VERSION).log("created nwaku's archive schema");
                return found;
            } finally {
                statement.execute("SELECT pg_advisory_unlock(" + MIGRATION_LOCK + ")");
            }
        }
    }

    /** The {@code version} table's value; 0 when there is no such table (an empty database). */
    static int currentVersion(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            try (ResultSet exists = statement.executeQuery("SELECT to_regclass('version') IS NOT NULL")) {
                exists.next();
                if (!exists.getBoolean(1)) {
                    return 0;
                }
            }
            try (ResultSet version = statement.executeQuery("SELECT max(version) FROM version")) {
                return version.next() ? version.getInt(1) : 0;
            }
        }
    }

    private static void create(Connection connection) throws SQLException {
        connection.setAutoCommit(false);
        try (Statement statement = connection.createStatement()) {
            for (String sql : CREATE) {
                statement.execute(sql);
            }
            connection.commit();
        } catch (SQLException e) {
            connection.rollback();
            throw e;
        } finally {
            connection.setAutoCommit(true);
        }
    }
}
