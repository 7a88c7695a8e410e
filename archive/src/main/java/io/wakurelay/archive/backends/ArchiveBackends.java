package io.wakurelay.archive.backends;

import io.micrometer.core.instrument.MeterRegistry;
import io.wakurelay.archive.ArchiveConfig;
import io.wakurelay.archive.MessageArchive;
import io.wakurelay.archive.postgres.PostgresArchive;
import io.wakurelay.archive.rocksdb.RocksArchive;

/**
 * Opens the archive its config names: the embedded RocksDB in {@link ArchiveConfig#dataDir()} (the default), or
 * PostgreSQL when {@link ArchiveConfig#postgres()} is set ({@code --store-message-db-url postgres://...}). The one place
 * that knows every backend, so that nothing else has to.
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
        return config.postgres() != null ? PostgresArchive.open(config, registry) : RocksArchive.open(config, registry);
    }
}
