package io.wakurelay.archive.postgres;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The time partitions of {@code messages}, named and made as nwaku makes them: {@code messages_<from>_<to>} (Unix
 * seconds) for the messages with {@code from <= timestamp / 1e9 < to}, an hour at most, ending on the hour. nwaku keeps
 * the partition of now and of the next hour; so does this node ({@link #ensureNowAndNext}), and it also makes, before
 * a batch that needs it, the partition of a message's hour when there is none (a message a little older than the first
 * partition, or a test's fixed timestamps), filling only the gap between existing partitions.
 *
 * <p>Made under nwaku's partition lock ({@code pg_advisory_xact_lock(123456789)}, the id nwaku takes around its
 * partition statements), with the list read again under it, so that nodes of a fleet, ours or nwaku's, never make
 * overlapping partitions. A partition is made detached, checked, then attached, as nwaku does, so that attaching it
 * does not scan or lock the whole table. Dropped by retention whole ({@link #dropBefore}), detached concurrently first.
 *
 * <p>The list is cached (an immutable snapshot, replaced on every change or refresh), so that the writer checks a
 * batch's timestamps without a query. Thread-safe.
 */
final class Partitions {
    /** nwaku's lock id around making partitions ({@code performWriteQueryWithLock}). */
    static final long PARTITION_LOCK = 123456789;
    static final long HOUR_SECONDS = 3600;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    /**
     * The first timestamp no partition can hold: its hour ends past the largest timestamp in nanoseconds (in 2262).
     * A message that names one would make the partition's bounds overflow, fail the batch, and, retried, stop the
     * writes of every node of the fleet that got it; it is skipped instead.
     */
    static final long FIRST_UNPARTITIONABLE_NANOS =
            Long.MAX_VALUE / NANOS_PER_SECOND / HOUR_SECONDS * HOUR_SECONDS * NANOS_PER_SECOND;
    private static final Pattern NAME = Pattern.compile("messages_(\\d+)_(\\d+)");
    private static final Logger log = LoggerFactory.getLogger(Partitions.class);

    /** One partition: Unix seconds {@code [from, to)}. */
    record Range(String name, long from, long to) {
        boolean contains(long second) {
            return from <= second && second < to;
        }

        static Range of(long from, long to) {
            return new Range("messages_" + from + "_" + to, from, to);
        }
    }

    private volatile List<Range> ranges = List.of();

    /** Reads the partitions of {@code messages} from the catalog. */
    void refresh(Connection connection) throws SQLException {
        ranges = read(connection);
    }

    List<Range> ranges() {
        return ranges;
    }

    /** Whether a partition holds messages of timestamp {@code nanos} (by the cached list). */
    boolean covers(long nanos) {
        long second = Math.floorDiv(nanos, NANOS_PER_SECOND);
        for (Range range : ranges) {
            if (range.contains(second)) {
                return true;
            }
        }
        return false;
    }

    /** Makes the partition for messages of timestamp {@code nanos} when there is none; @return whether it made one */
    boolean ensure(Connection connection, long nanos) throws SQLException {
        return ensureSecond(connection, Math.floorDiv(nanos, NANOS_PER_SECOND));
    }

    /** The partitions of now and of the next hour, as nwaku's partition loop keeps them. */
    void ensureNowAndNext(Connection connection, long nowNanos) throws SQLException {
        long now = Math.floorDiv(nowNanos, NANOS_PER_SECOND);
        ensureSecond(connection, now);
        ensureSecond(connection, Math.floorDiv(now, HOUR_SECONDS) * HOUR_SECONDS + HOUR_SECONDS);
    }

    private boolean ensureSecond(Connection connection, long second) throws SQLException {
        if (coversSecond(ranges, second)) {
            return false;
        }
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(false);
        try (Statement statement = connection.createStatement()) {
            statement.execute("SELECT pg_advisory_xact_lock(" + PARTITION_LOCK + ")");
            List<Range> now = read(connection);
            if (coversSecond(now, second)) {
                connection.commit();
                ranges = now;
                return false;
            }
            Range range = gapAround(now, second);
            String check = range.name() + "_by_range_check";
            long from = range.from() * NANOS_PER_SECOND;
            long to = range.to() * NANOS_PER_SECOND;
            statement.execute("CREATE TABLE IF NOT EXISTS " + range.name() + " (LIKE messages INCLUDING DEFAULTS INCLUDING CONSTRAINTS)");
            statement.execute("ALTER TABLE " + range.name() + " ADD CONSTRAINT " + check + " CHECK (timestamp >= " + from
                    + " AND timestamp < " + to + ")");
            statement.execute("ALTER TABLE messages ATTACH PARTITION " + range.name() + " FOR VALUES FROM (" + from + ") TO (" + to + ")");
            statement.execute("ALTER TABLE " + range.name() + " DROP CONSTRAINT " + check);
            connection.commit();
            List<Range> made = new ArrayList<>(now);
            made.add(range);
            made.sort(Comparator.comparingLong(Range::from));
            ranges = List.copyOf(made);
            log.atInfo().addKeyValue("partition", range.name()).log("made a partition of messages");
            return true;
        } catch (SQLException e) {
            connection.rollback();
            throw e;
        } finally {
            connection.setAutoCommit(autoCommit);
        }
    }

    /** The hour of {@code second}, less what neighbouring partitions already hold. */
    static Range gapAround(List<Range> existing, long second) {
        long hour = Math.floorDiv(second, HOUR_SECONDS) * HOUR_SECONDS;
        long from = hour;
        long to = hour + HOUR_SECONDS;
        for (Range r : existing) {
            if (r.to() <= second) {
                from = Math.max(from, r.to());
            } else if (r.from() > second) {
                to = Math.min(to, r.from());
            }
        }
        return Range.of(from, to);
    }

    /**
     * Drops every partition whose messages are all older than {@code cutoffNanos}, but never the one of now, and the
     * lookup rows of the messages they held: detached concurrently (readers are not blocked), then dropped.
     *
     * @return the messages they held
     */
    long dropBefore(Connection connection, long cutoffNanos, long nowNanos) throws SQLException {
        refresh(connection);
        long now = Math.floorDiv(nowNanos, NANOS_PER_SECOND);
        long dropped = 0;
        for (Range range : ranges) {
            if (range.to() * NANOS_PER_SECOND > cutoffNanos || range.contains(now)) {
                break;
            }
            dropped += drop(connection, range);
        }
        refresh(connection);
        return dropped;
    }

    /** Drops the oldest partition unless it is the one of now; @return the messages it held, or -1 when none was dropped */
    long dropOldest(Connection connection, long nowNanos) throws SQLException {
        refresh(connection);
        List<Range> list = ranges;
        if (list.isEmpty() || list.get(0).contains(Math.floorDiv(nowNanos, NANOS_PER_SECOND))) {
            return -1;
        }
        long rows = drop(connection, list.get(0));
        refresh(connection);
        return rows;
    }

    private long drop(Connection connection, Range range) throws SQLException {
        connection.setAutoCommit(true);
        long rows;
        try (Statement statement = connection.createStatement()) {
            try (ResultSet count = statement.executeQuery("SELECT count(*) FROM " + range.name())) {
                count.next();
                rows = count.getLong(1);
            }
            try {
                statement.execute("ALTER TABLE messages DETACH PARTITION " + range.name() + " CONCURRENTLY");
            } catch (SQLException e) {
                String message = String.valueOf(e.getMessage());
                if (message.contains("FINALIZE") || message.contains("pending detach")) {
                    // an earlier detach was interrupted: finish it
                    statement.execute("ALTER TABLE messages DETACH PARTITION " + range.name() + " FINALIZE");
                } else if (!message.contains("is not a partition of")) {
                    throw e;
                }
            }
            statement.execute("DROP TABLE IF EXISTS " + range.name());
            statement.execute("DELETE FROM messages_lookup WHERE timestamp < " + range.to() * NANOS_PER_SECOND);
        }
        log.atInfo().addKeyValue("partition", range.name()).addKeyValue("messages", rows)
                .log("dropped a partition of messages");
        return rows;
    }

    private static boolean coversSecond(List<Range> list, long second) {
        for (Range range : list) {
            if (range.contains(second)) {
                return true;
            }
        }
        return false;
    }

    private static List<Range> read(Connection connection) throws SQLException {
        List<Range> list = new ArrayList<>();
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("""
                     SELECT child.relname FROM pg_inherits
                     JOIN pg_class parent ON pg_inherits.inhparent = parent.oid
                     JOIN pg_class child ON pg_inherits.inhrelid = child.oid
                     WHERE parent.relname = 'messages'""")) {
            while (rows.next()) {
                Matcher m = NAME.matcher(rows.getString(1));
                if (m.matches()) {
                    list.add(Range.of(Long.parseLong(m.group(1)), Long.parseLong(m.group(2))));
                }
            }
        }
        list.sort(Comparator.comparingLong(Range::from));
        return List.copyOf(list);
    }
}
