package io.wakurelay.node.config;

import io.wakurelay.archive.ArchiveConfig;
import io.wakurelay.archive.PostgresConfig;
import io.wakurelay.archive.PostgresConfigBuilder;
import io.wakurelay.archive.RocksConfig;
import io.wakurelay.archive.StoreDbUrl;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.Map;

/**
 * Where the archive is, from {@code --store-message-db-url} and the PostgreSQL options: the embedded RocksDB store (in
 * {@code <data-dir>/store}, or the directory of a {@code rocksdb://} URL), or a PostgreSQL database. The password is
 * taken from the URL, else from {@code --store-message-db-password-file}, else from the environment variable
 * {@value #PASSWORD_VARIABLE}; it is never logged (the configs' {@code toString} hides it).
 */
final class StoreLocation {
    static final String PASSWORD_VARIABLE = "WAKURELAY_STORE_MESSAGE_DB_PASSWORD";

    private StoreLocation() {
    }

    /**
     * @param embedded the archive's config with the embedded store in the data directory; its {@link RocksConfig#core()}
     *                 goes to PostgreSQL too, with PostgreSQL's batch delay ({@link PostgresConfig#coreFrom})
     */
    static ArchiveConfig apply(StoreOptions options, Map<String, String> environment, RocksConfig embedded) {
        StoreDbUrl url = StoreDbUrl.parse(options.storeMessageDbUrl);
        if (url instanceof StoreDbUrl.RocksDb rocks) {
            return rocks.dir() == null ? embedded : embedded.toBuilder().dataDir(rocks.dir()).build();
        }
        StoreDbUrl.Postgres pg = (StoreDbUrl.Postgres) url;
        PostgresConfigBuilder config = pg.applyTo(PostgresConfig.builder())
                .core(PostgresConfig.coreFrom(embedded.core()))
                .maxConnections(options.storeMaxNumDbConnections)
                .statementTimeout(DurationText.parse(options.storeMessageDbStatementTimeout))
                .connectTimeout(DurationText.parse(options.storeMessageDbConnectTimeout))
                .startWait(DurationText.parse(options.storeMessageDbStartWait));
        if (pg.password().isEmpty()) {
            config.password(password(options, environment));
        }
        return config.build();
    }

    private static String password(StoreOptions options, Map<String, String> environment) {
        if (options.storeMessageDbPasswordFile != null) {
            try {
                return Files.readAllLines(options.storeMessageDbPasswordFile).stream().findFirst().orElse("").strip();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read --store-message-db-password-file " + options.storeMessageDbPasswordFile
                        + ": " + e.getMessage(), e);
            }
        }
        return environment.getOrDefault(PASSWORD_VARIABLE, "");
    }
}
