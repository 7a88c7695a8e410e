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
 * sizes are read here ({@link #hits}); a page's message data is read afterwards in small groups ({@link #data}). Lists
 * (content topics, hashes) are bound as one array each ({@code = ANY (?)}), so that a shape of query is one text
 * whatever its lengths: the driver prepares it on the server once a connection has run it five times, and planning,
 * which over dozens of partitions costs more than the query, is then mostly saved.
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
        return hits(query, cursorTimestamp, List.of(), limit);
    }

    /**
     * @param hashTimestamps for a query by hashes, the timestamps {@code messages_lookup} has for them: as literals
     *                       they let the planner read only the partitions that hold those messages (nwaku's driver
     *                       joins the lookup table for the same reason)
     */
    static QuerySql hits(StoreQuery query, Long cursorTimestamp, List<Long> hashTimestamps, int limit) {
        QuerySql q = new QuerySql();
        q.sql.append("SELECT messageHash, timestamp, pubsubTopic, octet_length(payload), octet_length(contentTopic), "
                + "octet_length(meta) FROM messages");
        List<String> terms = new ArrayList<>();
        switch (query.kind()) {
            case TOPICS -> {
                if (query.pubsubTopic() != null) { // content topics alone match on every pubsub topic
                    terms.add("pubsubTopic = ?");
                    q.parameters.add(query.pubsubTopic());
                }
                if (!query.contentTopics().isEmpty()) {
                    terms.add("contentTopic = ANY (?)");
                    q.parameters.add(query.contentTopics().toArray(new String[0]));
                }
            }
            case HASHES -> {
                terms.add("messageHash = ANY (?)");
                q.parameters.add(hexes(query.hashes()));
                if (query.pubsubTopic() != null) { // topics given too narrow the hashes, as nwaku's drivers do
                    terms.add("pubsubTopic = ?");
                    q.parameters.add(query.pubsubTopic());
                }
                if (!query.contentTopics().isEmpty()) {
                    terms.add("contentTopic = ANY (?)");
                    q.parameters.add(query.contentTopics().toArray(new String[0]));
                }
                if (!hashTimestamps.isEmpty()) {
                    terms.add("timestamp = ANY (?)");
                    q.parameters.add(hashTimestamps.toArray(new Long[0]));
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

    /** The timestamps {@code messages_lookup} has for {@code hashes} (distinct). */
    static QuerySql lookup(List<MessageHash> hashes) {
        QuerySql q = new QuerySql();
        q.sql.append("SELECT DISTINCT timestamp FROM messages_lookup WHERE messageHash = ANY (?)");
        q.parameters.add(hexes(hashes));
        return q;
    }

    /** The stored fields of {@code hashes}, whose timestamps are {@code timestamps} (which prunes the partitions). */
    static QuerySql data(List<String> hashes, List<Long> timestamps) {
        QuerySql q = new QuerySql();
        q.sql.append("SELECT messageHash, contentTopic, payload, version, timestamp, meta FROM messages "
                + "WHERE messageHash = ANY (?) AND timestamp = ANY (?)");
        q.parameters.add(hashes.toArray(new String[0]));
        q.parameters.add(timestamps.toArray(new Long[0]));
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
            } else if (value instanceof String[] texts) {
                statement.setArray(i + 1, statement.getConnection().createArrayOf("varchar", texts));
            } else if (value instanceof Long[] numbers) {
                statement.setArray(i + 1, statement.getConnection().createArrayOf("bigint", numbers));
            } else {
                throw new IllegalStateException("unexpected parameter " + value);
            }
        }
    }

    private static String[] hexes(List<MessageHash> hashes) {
        return hashes.stream().map(Hex::of).toArray(String[]::new);
    }
}
