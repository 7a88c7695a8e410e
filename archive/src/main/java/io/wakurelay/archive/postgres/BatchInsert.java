package io.wakurelay.archive.postgres;

import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.MessageHash;
import io.wakurelay.protocol.WakuMessageView;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One batch as two multi-row statements in one transaction, the rows as nwaku writes them (its {@code InsertRow} and
 * {@code InsertRowMessagesLookup}): {@code messages} and {@code messages_lookup}, each {@code ON CONFLICT DO NOTHING},
 * so that a message another node of the fleet stored first (the same hash, hence the same timestamp) is skipped, not an
 * error. {@code RETURNING} names the rows this transaction inserted: those are this batch's stored messages, the others
 * its duplicates. A multi-row INSERT rather than COPY, which has no {@code ON CONFLICT} (docs/adr/0062 has the
 * measurements). The statements' text is kept per row count; the driver prepares each on the server once it is reused.
 */
final class BatchInsert {
    private static final int MESSAGE_COLUMNS = 8;
    /** nwaku writes "0" in the {@code id} column, which Store v3 no longer uses. */
    private static final String FAKE_ID = "0";

    private final String[] messageSql;
    private final String[] lookupSql;

    BatchInsert(int maxRows) {
        messageSql = new String[maxRows + 1];
        lookupSql = new String[maxRows + 1];
    }

    /**
     * Inserts {@code rows} (distinct hashes, each with a timestamp its partition covers) in the caller's transaction.
     *
     * @return the hashes this call inserted; the rest were already stored
     */
    Set<MessageHash> insert(Connection connection, List<Envelope> rows) throws SQLException {
        Set<MessageHash> inserted = new HashSet<>();
        try (PreparedStatement messages = connection.prepareStatement(messageSql(rows.size()))) {
            int p = 1;
            for (Envelope envelope : rows) {
                WakuMessageView m = envelope.message();
                messages.setString(p++, FAKE_ID);
                messages.setString(p++, Hex.of(envelope.hash()));
                messages.setString(p++, envelope.pubsubTopic());
                messages.setString(p++, m.contentTopic());
                messages.setString(p++, Hex.of(m.payload()));
                messages.setInt(p++, m.version());
                messages.setLong(p++, m.timestamp());
                // nwaku stores an empty meta as NULL
                messages.setString(p++, m.metaSize() == 0 ? null : Hex.of(m.meta()));
            }
            try (ResultSet returned = messages.executeQuery()) {
                while (returned.next()) {
                    inserted.add(Hex.hash(returned.getString(1)));
                }
            }
        }
        try (PreparedStatement lookup = connection.prepareStatement(lookupSql(rows.size()))) {
            int p = 1;
            for (Envelope envelope : rows) {
                lookup.setString(p++, Hex.of(envelope.hash()));
                lookup.setLong(p++, envelope.message().timestamp());
            }
            lookup.executeUpdate();
        }
        return inserted;
    }

    private String messageSql(int rows) {
        String sql = messageSql[rows];
        if (sql == null) {
            sql = "INSERT INTO messages (id, messageHash, pubsubTopic, contentTopic, payload, version, timestamp, meta) VALUES "
                    + values(rows, MESSAGE_COLUMNS) + " ON CONFLICT DO NOTHING RETURNING messageHash";
            messageSql[rows] = sql;
        }
        return sql;
    }

    private String lookupSql(int rows) {
        String sql = lookupSql[rows];
        if (sql == null) {
            sql = "INSERT INTO messages_lookup (messageHash, timestamp) VALUES " + values(rows, 2) + " ON CONFLICT DO NOTHING";
            lookupSql[rows] = sql;
        }
        return sql;
    }

    private static String values(int rows, int columns) {
        String row = "(" + "?,".repeat(columns - 1) + "?)";
        StringBuilder sb = new StringBuilder(rows * (row.length() + 1));
        for (int i = 0; i < rows; i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append(row);
        }
        return sb.toString();
    }
}
