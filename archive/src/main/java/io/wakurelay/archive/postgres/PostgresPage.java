package io.wakurelay.archive.postgres;

import com.google.protobuf.UnsafeByteOperations;
import io.wakurelay.archive.ArchiveStorageException;
import io.wakurelay.archive.StoredMessage;
import io.wakurelay.archive.common.IndexedPage;
import io.wakurelay.archive.common.OpenPages;
import io.wakurelay.archive.common.PageCut;
import io.wakurelay.protocol.proto.WakuMessage;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;

/**
 * A {@link io.wakurelay.archive.StorePage} of the PostgreSQL archive. Its messages are read as it is iterated, in groups of at most
 * {@value #GROUP_MESSAGES} messages or {@value #GROUP_BYTES} bytes (the first always in), within the transaction the
 * page opened, so that a page holds at most one group in memory and sees one snapshot; the transaction ends, and its
 * connection goes back to the pool, once the last message is read, or at close.
 *
 * <p>The message is rebuilt from nwaku's columns (payload, content topic, version, timestamp, meta), as nwaku does:
 * what the schema does not keep (the rate-limit proof, unknown fields, a version or meta present but zero or empty) is
 * not in it; the hash covers none of those.
 */
final class PostgresPage extends IndexedPage<PostgresReader.Hit> {
    static final int GROUP_MESSAGES = 16;
    static final long GROUP_BYTES = 2L << 20;

    private final OpenPages pages;
    private Connection connection;
    private final Map<String, WakuMessage> group = new HashMap<>();

    PostgresPage(OpenPages pages, Connection connection, PageCut<PostgresReader.Hit> cut, boolean includeData,
                 long openNanos, LongConsumer busyNanos) {
        super(cut, includeData, openNanos, busyNanos);
        this.pages = pages;
        this.connection = connection;
    }

    @Override
    protected StoredMessage read(PostgresReader.Hit hit, int index, boolean includeData) {
        if (!includeData) {
            return new StoredMessage(hit.hash(), hit.timestamp(), null, null);
        }
        try {
            if (!group.containsKey(hit.hashHex())) {
                readGroup(index);
            }
            WakuMessage message = group.remove(hit.hashHex());
            if (message == null) {
                throw new ArchiveStorageException("stored message " + hit.hash() + " vanished from the page's snapshot", null);
            }
            if (index == hits().size() - 1) {
                end();
            }
            return new StoredMessage(hit.hash(), hit.timestamp(), hit.pubsubTopic(), message);
        } catch (SQLException e) {
            throw new ArchiveStorageException("store query failed: " + SqlErrors.describe(e), e);
        }
    }

    /** Reads the data of the next group of hits, from the {@code from}th on. */
    private void readGroup(int from) throws SQLException {
        group.clear();
        List<PostgresReader.Hit> hits = hits();
        List<String> hashes = new ArrayList<>(GROUP_MESSAGES);
        List<Long> timestamps = new ArrayList<>(GROUP_MESSAGES);
        long bytes = 0;
        for (int i = from; i < hits.size() && hashes.size() < GROUP_MESSAGES; i++) {
            PostgresReader.Hit hit = hits.get(i);
            if (!hashes.isEmpty() && bytes + hit.size() > GROUP_BYTES) {
                break;
            }
            hashes.add(hit.hashHex());
            timestamps.add(hit.timestamp());
            bytes += hit.size();
        }
        QuerySql sql = QuerySql.data(hashes, timestamps);
        try (PreparedStatement statement = connection.prepareStatement(sql.sql())) {
            sql.bind(statement);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    group.put(rows.getString(1), message(rows));
                }
            }
        }
    }

    /** nwaku's row as a WakuMessage: hex payload and meta, an empty or NULL meta absent. */
    private static WakuMessage message(ResultSet row) throws SQLException {
        WakuMessage.Builder message = WakuMessage.newBuilder()
                .setContentTopic(row.getString(2))
                .setTimestamp(row.getLong(5));
        int version = row.getInt(4);
        if (version != 0) {
            // nwaku writes 0 for a message without a version; the field is left absent, as it arrived
            message.setVersion(version);
        }
        String payload = row.getString(3);
        if (payload != null && !payload.isEmpty()) {
            message.setPayload(UnsafeByteOperations.unsafeWrap(Hex.parse(payload)));
        }
        String meta = row.getString(6);
        if (meta != null && !meta.isEmpty()) {
            message.setMeta(UnsafeByteOperations.unsafeWrap(Hex.parse(meta)));
        }
        return message.build();
    }

    /** Ends the page's transaction and gives its connection back; the page stays readable only for what it holds. */
    synchronized void end() {
        if (connection != null) {
            PostgresReader.end(connection);
            connection = null;
        }
    }

    @Override
    protected void release() {
        end();
        group.clear();
        pages.forget(this);
    }
}
