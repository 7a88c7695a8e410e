package io.wakurelay.archive.backends;

import io.micrometer.core.instrument.MeterRegistry;
import io.wakurelay.archive.ArchiveConfig;
import io.wakurelay.archive.MessageArchive;
import io.wakurelay.archive.PostgresConfig;
import io.wakurelay.archive.RocksConfig;
import io.wakurelay.archive.postgres.PostgresArchive;
import io.wakurelay.archive.rocksdb.RocksArchive;

/**
 * Opens the archive its config names: the embedded RocksDB for a {@link RocksConfig} (the default), PostgreSQL for a
 * {@link PostgresConfig} ({@code --store-message-db-url postgres://...}). The one place that knows every backend, so
 * that nothing else has to.
 */
public final class ArchiveBackends {
    private ArchiveBackends() {
    }

    /**
     * @throws io.wakurelay.archive.ArchiveStorageException when the store cannot be opened (a locked or foreign
     *                                                      directory; a database that is down past its start wait, or
     *                                                      whose schema is newer than this node knows)
     */
    public static MessageArchive open(ArchiveConfig config, MeterRegistry registry) {
        if (config instanceof PostgresConfig postgres) {
            return PostgresArchive.open(postgres, registry);
        }
        return RocksArchive.open((RocksConfig) config, registry);
    }
}
