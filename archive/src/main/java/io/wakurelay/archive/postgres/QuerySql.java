package io.wakurelay.archive.postgres;

import io.wakurelay.archive.StoreQuery;
import io.wakurelay.protocol.MessageHash;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * A Store v3 query as nwaku's driver asks its tables (its {@code getMessagesArbitraryQuery}): the filters as
 * {@code WHERE} terms, the cursor as {@code (timestamp, messageHash) > (t, h)} (or {@code <} backward), ordered by
 * {@code (timestamp, messageHash)} in the query's direction. Hashes are lower-case hex, whose text order is their byte
 * order under any collation of the hex digits, so the order is the RocksDB archive's. Only the index columns and the
 * sizes are read here ({@link #hits}); a page's message data is read afterwards in small groups ({@link #data}).
 */
final class QuerySql {
    private final StringBuilder sql = new StringBuilder();
    private final List<Object> parameters = new ArrayList<>();

    private QuerySql() {
    }

    /**
     * The page's index entries: hash, timestamp, pubsub topic and the sizes of the stored fields, at most {@code limit}.
     *
     * @param cursorTimestamp the cursor's timestamp, when the query has a cursor
     */
    static QuerySql hits(StoreQuery query, Long cursorTimestamp, int limit) {
        QuerySql q = new QuerySql();
        q.sql.append("SELECT messageHash, timestamp, pubsubTopic, octet_length(payload), octet_length(contentTopic), "
                + "octet_length(meta) FROM messages");
        List<String> terms = new ArrayList<>();
        switch (query.kind()) {
            case TOPICS -> {
                terms.add("pubsubTopic = ?");
                q.parameters.add(query.pubsubTopic());
                if (!query.contentTopics().isEmpty()) {
                    terms.add("contentTopic IN (" + placeholders(query.contentTopics().size()) + ")");
                    q.parameters.addAll(query.contentTopics());
                }
            }
            case HASHES -> {
                terms.add("messageHash IN (" + placeholders(query.hashes().size()) + ")");
                for (MessageHash hash : query.hashes()) {
                    q.parameters.add(Hex.of(hash));
                }
            }
            case TIME -> {
            }
        }
        if (query.startTime() != null) {
            terms.add("timestamp >= ?");
            q.parameters.add(query.startTime());
        }
        if (query.endTime() != null) {
            terms.add("timestamp <= ?");
            q.parameters.add(query.endTime());
        }
        if (cursorTimestamp != null) {
            terms.add("(timestamp, messageHash) " + (query.ascending() ? ">" : "<") + " (?, ?)");
            q.parameters.add(cursorTimestamp);
            q.parameters.add(Hex.of(query.cursor()));
        }
        if (!terms.isEmpty()) {
            q.sql.append(" WHERE ").append(String.join(" AND ", terms));
        }
        String direction = query.ascending() ? "ASC" : "DESC";
        q.sql.append(" ORDER BY timestamp ").append(direction).append(", messageHash ").append(direction).append(" LIMIT ?");
        q.parameters.add(limit);
        return q;
    }

    /** The stored fields of {@code hashes}, whose timestamps lie in {@code [from, to]} (which prunes the partitions). */
    static QuerySql data(List<String> hashes, long from, long to) {
        QuerySql q = new QuerySql();
        q.sql.append("SELECT messageHash, contentTopic, payload, version, timestamp, meta FROM messages WHERE messageHash IN (")
                .append(placeholders(hashes.size())).append(") AND timestamp >= ? AND timestamp <= ?");
        q.parameters.addAll(hashes);
        q.parameters.add(from);
        q.parameters.add(to);
        return q;
    }

    String sql() {
        return sql.toString();
    }

    void bind(PreparedStatement statement) throws SQLException {
        for (int i = 0; i < parameters.size(); i++) {
            Object value = parameters.get(i);
            if (value instanceof String s) {
                statement.setString(i + 1, s);
            } else if (value instanceof Long l) {
                statement.setLong(i + 1, l);
            } else if (value instanceof Integer n) {
                statement.setInt(i + 1, n);
            } else {
                throw new IllegalStateException("unexpected parameter " + value);
            }
        }
    }

    private static String placeholders(int n) {
        return "?,".repeat(n - 1) + "?";
    }
}
