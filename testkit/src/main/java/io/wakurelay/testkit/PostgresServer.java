package io.wakurelay.testkit;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real PostgreSQL server of Debian's {@code postgresql} package, for the tests of the PostgreSQL archive: a cluster
 * made by {@code initdb} in a temporary directory, started by {@code pg_ctl} on a free port of 127.0.0.1, stopped and
 * deleted after. One per test class: register it as {@code @RegisterExtension static final PostgresServer postgres =
 * new PostgresServer();} and give each test a database of its own with {@link #freshDatabase()}.
 *
 * <p>The package is installed with {@code apt-get} when no {@code initdb} is found ({@link PostgresInstall}); as root
 * (CI), the cluster belongs to the {@code postgres} user, because {@code initdb} and {@code pg_ctl} refuse to run as
 * root. The server listens on loopback only, with password authentication ({@link #USER}, {@link #PASSWORD}),
 * {@code fsync} off (the tests crash the server process, never the machine) and the C collation. A shutdown hook stops
 * it if the JVM ends first.
 */
public final class PostgresServer implements BeforeAllCallback, AfterAllCallback, AutoCloseable {
    public static final String USER = "wakurelay";
    public static final String PASSWORD = "test-password";
    public static final String HOST = "127.0.0.1";

    private static final AtomicInteger DATABASES = new AtomicInteger();

    private Path dir;
    private Path binDir;
    private int port;
    private boolean asPostgresUser;
    private Thread shutdownHook;

    /** Installs the package when missing, makes the cluster and starts it; {@link #close()} stops it. */
    public static PostgresServer start() {
        PostgresServer server = new PostgresServer();
        server.startCluster();
        return server;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        startCluster();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        close();
    }

    private synchronized void startCluster() {
        if (dir != null) {
            return;
        }
        binDir = PostgresInstall.binDir();
        asPostgresUser = PostgresInstall.isRoot();
        try {
            dir = Files.createTempDirectory("wakurelay-pg");
            Path data = dir.resolve("data");
            Path passwordFile = dir.resolve("password");
            Files.writeString(passwordFile, PASSWORD);
            if (asPostgresUser) {
                PostgresInstall.chown(dir, "postgres");
                PostgresInstall.chown(passwordFile, "postgres");
            }
            run("initdb", "-D", data.toString(), "-U", USER, "--pwfile=" + passwordFile, "--auth=scram-sha-256",
                    "--no-locale", "-E", "UTF8", "--no-sync");
            port = freePort();
            shutdownHook = new Thread(this::stopQuietly, "postgres-test-server-stop");
            Runtime.getRuntime().addShutdownHook(shutdownHook);
            startServer();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make a PostgreSQL cluster", e);
        }
    }

    /** Starts the server (again, after {@link #stopServer()}) on the same port, and waits until it accepts connections. */
    public void startServer() {
        Path data = dir.resolve("data");
        run("pg_ctl", "-D", data.toString(), "-l", dir.resolve("server.log").toString(), "-w", "-t", "60", "start",
                "-o", "-p " + port + " -c listen_addresses=" + HOST + " -k " + dir + " -c fsync=off -c full_page_writes=off"
                        + " -c max_connections=200");
    }

    /**
     * Stops the server: {@code fast} (sessions are ended, a clean shutdown) or {@code immediate} (the processes quit at
     * once, as in a crash; the next start recovers from the write-ahead log).
     */
    public void stopServer(String mode) {
        run("pg_ctl", "-D", dir.resolve("data").toString(), "-w", "-t", "60", "-m", mode, "stop");
    }

    public void stopServer() {
        stopServer("fast");
    }

    /** A new empty database on this server; returns its name. */
    public String freshDatabase() {
        String name = "test_" + DATABASES.incrementAndGet();
        psql("postgres", "CREATE DATABASE " + name);
        return name;
    }

    /** Runs {@code sql} with psql in {@code database}; returns what it printed (unaligned, tuples only). */
    public String psql(String database, String sql) {
        List<String> command = List.of(binDir.resolve("psql").toString(), "-h", HOST, "-p", Integer.toString(port), "-U", USER,
                "-d", database, "-v", "ON_ERROR_STOP=1", "-A", "-t", "-c", sql);
        return Processes.run(command, java.util.Map.of("PGPASSWORD", PASSWORD), "psql");
    }

    /** {@code postgres://user:password@127.0.0.1:port/database}, as {@code --store-message-db-url} takes it. */
    public String url(String database) {
        return "postgres://" + USER + ":" + PASSWORD + "@" + HOST + ":" + port + "/" + database;
    }

    public int port() {
        return port;
    }

    /** The server's log, for failure messages. */
    public Path log() {
        return dir.resolve("server.log");
    }

    @Override
    public synchronized void close() {
        if (dir == null) {
            return;
        }
        stopQuietly();
        if (shutdownHook != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs anyway
            }
        }
        PostgresInstall.deleteTree(dir);
        dir = null;
    }

    private void stopQuietly() {
        try {
            run("pg_ctl", "-D", dir.resolve("data").toString(), "-w", "-t", "60", "-m", "fast", "stop");
        } catch (RuntimeException alreadyStopped) {
            // stopped by the test, or never started
        }
    }

    private void run(String program, String... args) {
        List<String> command = new ArrayList<>();
        if (asPostgresUser) {
            command.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        command.add(binDir.resolve(program).toString());
        command.addAll(List.of(args));
        Processes.run(command, java.util.Map.of(), program);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getByName(HOST))) {
            return socket.getLocalPort();
        }
    }
}
