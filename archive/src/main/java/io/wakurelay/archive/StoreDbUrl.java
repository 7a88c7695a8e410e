package io.wakurelay.archive;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;

/**
 * nwaku's {@code --store-message-db-url}, the archive's location: empty or {@code rocksdb://<dir>} for the embedded
 * RocksDB store, {@code postgres://user:password@host:port/database} (or {@code postgresql://}) for PostgreSQL. nwaku's
 * {@code sqlite://} is refused, saying what is supported. {@link Postgres#toString()} never shows a password.
 */
public sealed interface StoreDbUrl {
    String SUPPORTED = "rocksdb://<dir> (the embedded store; the default when empty) or "
            + "postgres://user:password@host:port/database";

    /** The embedded RocksDB store in {@code dir}; null: the default directory, {@code <data-dir>/store}. */
    record RocksDb(Path dir) implements StoreDbUrl {
    }

    /** A PostgreSQL database; {@code password} is empty when the URL has none (it may come from elsewhere). */
    record Postgres(String host, int port, String database, String user, String password) implements StoreDbUrl {
        @Override
        public String toString() {
            return "postgres://" + user + (password.isEmpty() ? "" : ":***") + "@" + host + ":" + port + "/" + database;
        }

        /** The connection part of a {@link PostgresConfig}, its other settings from {@code base}. */
        public PostgresConfigBuilder applyTo(PostgresConfigBuilder base) {
            base.host(host).port(port).database(database).user(user);
            return password.isEmpty() ? base : base.password(password);
        }
    }

    /** @throws IllegalArgumentException saying what is wrong and what is supported (never quoting a password) */
    static StoreDbUrl parse(String url) {
        if (url == null || url.isBlank()) {
            return new RocksDb(null);
        }
        String text = url.trim();
        int schemeEnd = text.indexOf("://");
        if (schemeEnd < 0) {
            throw new IllegalArgumentException("the store database URL needs a scheme: " + SUPPORTED);
        }
        String scheme = text.substring(0, schemeEnd).toLowerCase(Locale.ROOT);
        String rest = text.substring(schemeEnd + 3);
        return switch (scheme) {
            case "rocksdb" -> {
                if (rest.isEmpty()) {
                    throw new IllegalArgumentException("rocksdb:// needs a directory, e.g. rocksdb://data/store or rocksdb:///var/lib/waku");
                }
                yield new RocksDb(Path.of(rest));
            }
            case "postgres", "postgresql" -> postgres(text);
            case "sqlite" -> throw new IllegalArgumentException("sqlite is not supported by this node (nwaku's SQLite store has "
                    + "no counterpart here): use " + SUPPORTED);
            default -> throw new IllegalArgumentException("unknown store database scheme '" + scheme + "': use " + SUPPORTED);
        };
    }

    private static Postgres postgres(String text) {
        URI uri;
        try {
            uri = new URI(text);
        } catch (URISyntaxException e) {
            // the message would quote the URL, password and all
            throw new IllegalArgumentException("the PostgreSQL URL is malformed (the password may need percent-encoding): "
                    + "expected postgres://user:password@host:port/database");
        }
        String host = uri.getHost();
        if (host == null || host.isEmpty()) {
            throw new IllegalArgumentException("the PostgreSQL URL names no host: expected postgres://user:password@host:port/database");
        }
        int port = uri.getPort() < 0 ? 5432 : uri.getPort();
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        String database = decode(path.startsWith("/") ? path.substring(1) : path);
        if (database.isEmpty() || database.contains("/")) {
            throw new IllegalArgumentException("the PostgreSQL URL must name one database: postgres://user:password@host:port/database");
        }
        String userInfo = uri.getRawUserInfo();
        if (userInfo == null || userInfo.isEmpty()) {
            throw new IllegalArgumentException("the PostgreSQL URL names no user: postgres://user:password@host:port/database");
        }
        int colon = userInfo.indexOf(':');
        String user = decode(colon < 0 ? userInfo : userInfo.substring(0, colon));
        String password = colon < 0 ? "" : decode(userInfo.substring(colon + 1));
        if (uri.getRawQuery() != null) {
            throw new IllegalArgumentException("the PostgreSQL URL takes no parameters (?...): the pool and timeouts have "
                    + "options of their own (--store-max-num-db-connections, --store-message-db-statement-timeout, ...)");
        }
        return new Postgres(host.startsWith("[") ? host.substring(1, host.length() - 1) : host, port, database, user, password);
    }

    private static String decode(String part) {
        return URLDecoder.decode(part.replace("+", "%2B"), StandardCharsets.UTF_8);
    }
}
