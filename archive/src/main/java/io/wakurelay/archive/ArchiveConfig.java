package io.wakurelay.archive;

import java.util.function.UnaryOperator;

/**
 * How the archive is kept: one record per backend, {@link RocksConfig} (the embedded store, the default) or
 * {@link PostgresConfig} (nwaku's schema, for fleets), each with the settings of its store and the {@link CoreConfig}
 * every backend shares (which messages are kept, and how they are taken). Which record it is chooses the backend
 * ({@code io.wakurelay.archive.backends.ArchiveBackends}); a setting that a backend does not have cannot be given to it.
 */
public sealed interface ArchiveConfig permits RocksConfig, PostgresConfig {

    /** What every backend shares: retention, the timestamp window, batches and credits. */
    CoreConfig core();

    /** {@code rocksdb} or {@code postgres}: the {@code backend} label of metrics and logs. */
    String backend();

    /** This config with its {@link #core()} changed by {@code change}, whichever backend it names. */
    ArchiveConfig withCore(UnaryOperator<CoreConfigBuilder> change);
}
