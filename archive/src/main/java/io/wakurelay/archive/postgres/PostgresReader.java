package io.wakurelay.archive.postgres;

import io.wakurelay.archive.StorePage;
import io.wakurelay.archive.StoreQuery;
import io.wakurelay.archive.UnknownCursorException;
import io.wakurelay.archive.common.OpenPages;
import io.wakurelay.archive.common.PageCut;
import io.wakurelay.protocol.MessageHash;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * Opens Store v3 pages on PostgreSQL, each in one read-only repeatable-read transaction of its own (a snapshot, as the
 * RocksDB archive's pages have), so that a page is consistent while the writers of the fleet insert and retention
 * deletes: the cursor's timestamp from {@code messages_lookup}, then the page's index entries with their sizes, one
 * more than the page size (the extra one says whether a next page exists), cut where the byte budget ends. The
 * messages' data is read as the page is iterated ({@link PostgresPage}), within the same transaction.
 */
final class PostgresReader implements AutoCloseable {
    /** The WakuMessage's field tags and lengths around the stored fields, at most: a page's budget counts them too. */
    static final int MESSAGE_OVERHEAD_BYTES = 32;

    /** An index entry found for a query, with the estimated size of its WakuMessage encoding. */
    record Hit(String hashHex, long timestamp, String pubsubTopic, long size) {
        MessageHash hash() {
            return Hex.hash(hashHex);
        }
    }

    private final ConnectionPool pool;
    private final OpenPages pages = new OpenPages();

    PostgresReader(ConnectionPool pool) {
        this.pool = pool;
    }

    StorePage open(StoreQuery query, long maxPageBytes, LongConsumer busyNanos) throws SQLException {
        long start = System.nanoTime();
        Connection connection = pool.connection();
        try {
            connection.setAutoCommit(false);
            connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            connection.setReadOnly(true);
            Long cursorTimestamp = query.cursor() == null ? null : cursorTimestamp(connection, query.cursor());
            PageCut<Hit> cut = PageCut.of(hits(connection, query, cursorTimestamp), query, maxPageBytes, Hit::hash, Hit::size);
            PostgresPage opened = new PostgresPage(pages, connection, cut, query.includeData(), System.nanoTime() - start,
                    busyNanos);
            pages.add(opened); // when the archive is closing, the page is closed and this throws
            if (cut.hits().isEmpty() || !query.includeData()) {
                opened.end(); // nothing more to read: the connection goes back at once
            }
            return opened;
        } catch (SQLException | RuntimeException e) {
            end(connection);
            throw e;
        }
    }

    private static Long cursorTimestamp(Connection connection, MessageHash cursor) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("SELECT timestamp FROM messages_lookup WHERE messageHash = ?")) {
            statement.setString(1, Hex.of(cursor));
            try (ResultSet row = statement.executeQuery()) {
                if (!row.next()) {
                    throw new UnknownCursorException(cursor);
                }
                return row.getLong(1);
            }
        }
    }

    private static List<Hit> hits(Connection connection, StoreQuery query, Long cursorTimestamp) throws SQLException {
        List<Long> hashTimestamps = List.of();
        if (query.kind() == StoreQuery.Kind.HASHES) {
            hashTimestamps = lookup(connection, query);
            if (hashTimestamps.isEmpty()) {
                return List.of(); // none of them is stored
            }
        }
        QuerySql sql = QuerySql.hits(query, cursorTimestamp, hashTimestamps, query.pageSize() + 1);
        List<Hit> hits = new ArrayList<>(query.pageSize() + 1);
        try (PreparedStatement statement = connection.prepareStatement(sql.sql())) {
            sql.bind(statement);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    // payload and meta are hex: two characters a byte
                    long size = rows.getLong(4) / 2 + rows.getLong(5) + rows.getLong(6) / 2 + MESSAGE_OVERHEAD_BYTES;
                    hits.add(new Hit(rows.getString(1), rows.getLong(2), rows.getString(3), size));
                }
            }
        }
        return hits;
    }

    private static List<Long> lookup(Connection connection, StoreQuery query) throws SQLException {
        QuerySql sql = QuerySql.lookup(query.hashes());
        List<Long> timestamps = new ArrayList<>();
        try (PreparedStatement statement = connection.prepareStatement(sql.sql())) {
            sql.bind(statement);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    timestamps.add(rows.getLong(1));
                }
            }
        }
        return timestamps;
    }

    /** Ends a page's read-only transaction and gives its connection back. */
    static void end(Connection connection) {
        try {
            connection.rollback();
        } catch (SQLException lost) {
            // the connection is gone; the pool drops it
        }
        try {
            connection.close();
        } catch (SQLException lost) {
            // as above
        }
    }

    /** Closes every open page (their connections go back before the pool closes); no page opens after. */
    @Override
    public void close() {
        pages.closeAll();
    }
}
