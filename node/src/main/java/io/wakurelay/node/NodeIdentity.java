package io.wakurelay.node;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.regex.Pattern;

/** The node id: given, or made once and kept in the data directory so that it survives restarts. */
public final class NodeIdentity {
    private static final Pattern VALID = Pattern.compile("[0-9a-f]{8,64}");
    static final String FILE = "node-id";

    private NodeIdentity() {
    }

    /** @throws IllegalArgumentException when the id is not 8 to 64 lower-case hex digits */
    public static String validate(String id) {
        if (!VALID.matcher(id).matches()) {
            throw new IllegalArgumentException("node id must be 8 to 64 lower-case hex digits, was '" + id + "'");
        }
        return id;
    }

    public static String loadOrCreate(Path dataDir) {
        Path file = dataDir.resolve(FILE);
        try {
            if (Files.exists(file)) {
                return validate(Files.readString(file, StandardCharsets.US_ASCII).trim());
            }
            Files.createDirectories(dataDir);
            byte[] random = new byte[16];
            new SecureRandom().nextBytes(random);
            String id = HexFormat.of().formatHex(random);
            Files.writeString(file, id + "\n", StandardCharsets.US_ASCII);
            return id;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read or write the node id in " + file + ": " + e.getMessage(), e);
        }
    }
}
