package io.wakurelay.archive.postgres;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.wakurelay.archive.common.ArchiveMeters;

import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;

/**
 * The PostgreSQL archive's own meters beside the {@link ArchiveMeters} every backend serves (docs/metrics.md,
 * "Archive on PostgreSQL"): the pool, the partitions, whether the database answers, the retention passes left to
 * another node of the fleet, and the messages it refused for good. Registered on, and removed with, the common meters.
 */
final class PostgresMetrics {
    final Counter retentionSkipped;
    final Counter messagesRefused;

    PostgresMetrics(ArchiveMeters common, ConnectionPool pool, Partitions partitions, BooleanSupplier up) {
        for (String state : new String[]{"active", "idle", "waiting"}) {
            IntSupplier value = switch (state) {
                case "active" -> pool::active;
                case "idle" -> pool::idle;
                default -> pool::waiting;
            };
            common.keep(Gauge.builder("waku.postgres.connections", value::getAsInt).tag("state", state)
                    .description("the archive's PostgreSQL connections: in use, idle in the pool, and callers waiting for one")
                    .register(common.registry()));
        }
        common.gauge("waku.postgres.partitions", "time partitions of the messages table", () -> partitions.ranges().size());
        common.gauge("waku.postgres.up", "1 while the archive's PostgreSQL database answers (checked every few seconds), else 0",
                () -> up.getAsBoolean() ? 1 : 0);
        retentionSkipped = common.counter("waku.postgres.retention.skipped",
                "retention passes left to another node of the fleet, which held the retention lock");
        messagesRefused = common.counter("waku.postgres.messages.refused",
                "messages the database refused for a reason retrying cannot change (a row it cannot take): skipped, "
                        + "the rest of their batch written");
    }
}
