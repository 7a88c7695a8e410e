/**
 * The PostgreSQL archive: nwaku's schema in a database that a fleet of store nodes, ours or nwaku's, may share
 * (docs/archive.md, "PostgreSQL and fleets"; ADRs 0061 – 0063).
 *
 * <p>In flow order. Opening: {@link io.wakurelay.archive.postgres.PostgresArchive#open} makes the {@code ConnectionPool}
 * (HikariCP, every wait bounded), waits for the database, brings it to nwaku's schema ({@code NwakuSchema}, under
 * nwaku's migration lock) and makes the hourly {@code Partitions} of now. Writing: the {@code PostgresWriter} (the
 * core's single writer, with its {@code WriteSession}) commits each batch as one transaction of {@code BatchInsert}'s two
 * multi-row INSERTs (nwaku's rows, lower-case {@code Hex}), retrying what the database refused for a passing reason
 * ({@code SqlErrors} says which), and writing in halves ({@code SplitInsert}) a batch it refused for good, so that only
 * the message it cannot take is skipped. Querying: {@code PostgresReader} opens a {@code PostgresPage} in a
 * repeatable-read transaction with the SQL of {@code QuerySql}. Background: {@code Housekeeping} checks the database,
 * keeps the partitions, counts, and runs {@code PostgresRetention} once for the fleet. Meters: {@code PostgresMetrics}
 * beside the common ones. What it shares with every backend is {@code io.wakurelay.archive.common}'s.
 */
package io.wakurelay.archive.postgres;
