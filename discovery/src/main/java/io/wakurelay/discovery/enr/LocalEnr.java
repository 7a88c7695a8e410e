package io.wakurelay.discovery.enr;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.SortedMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This node's record, kept beside the node key in {@code <dataDir>/enr}. EIP-778 wants the sequence number to grow
 * whenever the record changes, because a peer keeps the record with the highest one: a node that started again at 1
 * with a new address would stay unknown under its old record until that expired. So the record last published is
 * read at start; when the new content is the same, its sequence number is kept, otherwise it is that plus one. The
 * file is written to a temporary file and moved into place, so a crash leaves the old record or the new one. A file
 * that does not parse or is of another key is set aside (logged) and counting starts again from it being absent.
 */
public final class LocalEnr {

    public static final String FILE_NAME = "enr";

    private static final Logger LOG = LoggerFactory.getLogger(LocalEnr.class);

    private final Path file;
    private Enr current;

    private LocalEnr(Path file, Enr current) {
        this.file = file;
        this.current = current;
    }

    /** The record for {@code builder}'s content, its sequence number continued from {@code <dataDir>/enr}. */
    public static LocalEnr publish(Path dataDir, EnrBuilder builder) {
        Path file = dataDir.resolve(FILE_NAME);
        LocalEnr local = new LocalEnr(file, previous(file, builder));
        local.update(builder);
        return local;
    }

    /** The current record. */
    public synchronized Enr current() {
        return current;
    }

    /** Rebuilds the record from {@code builder}; the sequence number grows when the content changed. */
    public synchronized Enr update(EnrBuilder builder) {
        SortedMap<String, byte[]> content = builder.content();
        Enr candidate = Enr.sign(current == null ? 1 : current.seq(), content, builder.key().raw());
        if (current != null && !candidate.sameContent(current.pairs())) {
            candidate = Enr.sign(current.seq() + 1, content, builder.key().raw());
        }
        if (current == null || !Arrays.equals(candidate.encoded(), current.encoded())) {
            write(candidate);
        }
        current = candidate;
        return candidate;
    }

    private void write(Enr record) {
        try {
            Files.createDirectories(file.getParent());
            Path temporary = Files.createTempFile(file.getParent(), FILE_NAME + ".", ".tmp");
            try {
                Files.writeString(temporary, record.text() + "\n", StandardCharsets.US_ASCII);
                Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(temporary);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the node's record to " + file, e);
        }
    }

    private static Enr previous(Path file, EnrBuilder builder) {
        String text;
        try {
            if (Files.size(file) > Enr.MAX_TEXT_LENGTH + 2) {
                LOG.atWarn().addKeyValue("file", String.valueOf(file))
                        .log("the ENR file is too large to be a record; starting its sequence number again");
                return null;
            }
            text = Files.readString(file, StandardCharsets.US_ASCII);
        } catch (NoSuchFileException missing) {
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the node's record " + file, e);
        }
        try {
            Enr previous = Enr.parse(text);
            byte[] ours = V4Identity.publicKey(builder.key().raw());
            if (!Arrays.equals(previous.publicKey(), ours)) {
                LOG.atWarn().addKeyValue("file", String.valueOf(file)).log("the ENR file is the record of another key "
                        + "(the node key changed); starting its sequence number again");
                return null;
            }
            return previous;
        } catch (EnrFormatException e) {
            LOG.atWarn().addKeyValue("file", String.valueOf(file)).addKeyValue("reason", e.getMessage())
                    .log("the ENR file is not a valid record; starting its sequence number again");
            return null;
        }
    }
}
