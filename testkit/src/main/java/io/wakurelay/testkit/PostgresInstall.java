package io.wakurelay.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Finds PostgreSQL's server programs ({@code /usr/lib/postgresql/<version>/bin}, the newest version, or {@code initdb}
 * on the PATH) and installs Debian's {@code postgresql} package when there are none (as root, as CI runs; elsewhere the
 * message says what to install). Once per JVM.
 */
final class PostgresInstall {
    private static Path binDir;

    private PostgresInstall() {
    }

    static synchronized Path binDir() {
        if (binDir == null) {
            binDir = find();
            if (binDir == null) {
                install();
                binDir = find();
                if (binDir == null) {
                    throw new IllegalStateException("apt-get installed postgresql, but no initdb was found in "
                            + "/usr/lib/postgresql/*/bin");
                }
            }
        }
        return binDir;
    }

    static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    private static Path find() {
        Path lib = Path.of("/usr/lib/postgresql");
        if (Files.isDirectory(lib)) {
            try (Stream<Path> versions = Files.list(lib)) {
                Path newest = versions.filter(v -> Files.isExecutable(v.resolve("bin/initdb")))
                        .max(Comparator.comparingInt(PostgresInstall::version)).orElse(null);
                if (newest != null) {
                    return newest.resolve("bin");
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        for (String entry : System.getenv().getOrDefault("PATH", "").split(":")) {
            Path initdb = Path.of(entry.isEmpty() ? "." : entry, "initdb");
            if (Files.isExecutable(initdb)) {
                try {
                    return initdb.toRealPath().getParent();
                } catch (IOException e) {
                    return initdb.getParent();
                }
            }
        }
        return null;
    }

    private static int version(Path dir) {
        try {
            return Integer.parseInt(dir.getFileName().toString());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static void install() {
        if (!isRoot()) {
            throw new IllegalStateException("PostgreSQL's server programs (initdb, pg_ctl) are not installed, and only root "
                    + "may install them: run 'apt-get install -y postgresql' (Debian's package) and run the tests again");
        }
        Map<String, String> env = Map.of("DEBIAN_FRONTEND", "noninteractive");
        try {
            Processes.run(List.of("apt-get", "install", "-y", "-q", "postgresql"), env, "apt-get install postgresql");
        } catch (IllegalStateException stalePackageLists) {
            Processes.run(List.of("apt-get", "update", "-q"), env, "apt-get update");
            Processes.run(List.of("apt-get", "install", "-y", "-q", "postgresql"), env, "apt-get install postgresql");
        }
    }

    static void chown(Path path, String user) throws IOException {
        UserPrincipalLookupService users = path.getFileSystem().getUserPrincipalLookupService();
        Files.setOwner(path, users.lookupPrincipalByName(user));
    }

    static void deleteTree(Path dir) {
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    // left for the OS's temp cleaning
                }
            });
        } catch (IOException e) {
            // left for the OS's temp cleaning
        }
    }
}
