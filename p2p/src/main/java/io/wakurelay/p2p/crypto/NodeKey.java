package io.wakurelay.p2p.crypto;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's identity key on disk: {@code <dataDir>/nodekey} holds the marshalled {@code PrivateKey} protobuf (the
 * format go-libp2p and js-libp2p store). A missing file is created with a new secp256k1 key, nwaku's node key
 * type, written atomically (a temporary file moved into place) and readable by the owner only where the file
 * system has POSIX permissions. A file that does not parse is an error, never silently replaced: replacing it
 * would change the node's peer id.
 */
public final class NodeKey {

    public static final String FILE_NAME = "nodekey";

    private static final Logger LOG = LoggerFactory.getLogger(NodeKey.class);
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");
    private static final int MAX_FILE_SIZE = 16 * 1024; // a key protobuf is under 100 bytes (RSA keys aside)

    private NodeKey() {
    }

    /** The key in {@code <dataDir>/nodekey}, created (with {@code dataDir}) when it does not exist. */
    public static PrivateKey loadOrCreate(Path dataDir) {
        Path file = dataDir.resolve(FILE_NAME);
        try {
            return load(file);
        } catch (NoSuchFileException missing) {
            return create(dataDir, file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the node key " + file, e);
        }
    }

    /**
     * The key in {@code <dataDir>/nodekey} if there is one, read and checked; empty when there is none. Writes
     * nothing: for reading a configuration, where nothing may be created yet.
     */
    public static java.util.Optional<PrivateKey> loadIfPresent(Path dataDir) {
        if (Files.exists(dataDir) && !Files.isDirectory(dataDir)) {
            // else the read below fails with ENOTDIR, which names the key file and not the cause
            throw new IllegalArgumentException(dataDir + " is a file, not a directory");
        }
        Path file = dataDir.resolve(FILE_NAME);
        try {
            return java.util.Optional.of(load(file));
        } catch (NoSuchFileException missing) {
            return java.util.Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the node key " + file, e);
        }
    }

    private static PrivateKey load(Path file) throws IOException {
        long size = Files.size(file);
        if (size > MAX_FILE_SIZE) {
            throw new KeyFormatException("the node key " + file + " is " + size + " bytes: not a key file");
        }
        byte[] bytes = Files.readAllBytes(file);
        PrivateKey key;
        try {
            key = PrivateKey.unmarshal(bytes);
        } catch (KeyFormatException e) {
            throw new KeyFormatException("the node key " + file + " is corrupt (" + e.getMessage() + "); it was "
                    + "left as it is: restore it, or move it away to start with a new identity", e);
        }
        warnIfReadableByOthers(file);
        return key;
    }

    private static PrivateKey create(Path dataDir, Path file) {
        PrivateKey key = PrivateKey.generateSecp256k1();
        try {
            Files.createDirectories(dataDir);
            boolean posix = Files.getFileStore(dataDir).supportsFileAttributeView("posix");
            FileAttribute<?>[] attributes = posix
                    ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(OWNER_ONLY)}
                    : new FileAttribute<?>[0];
            Path temporary = Files.createTempFile(dataDir, FILE_NAME + ".", ".tmp", attributes);
            try {
                try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
                    ByteBuffer buffer = ByteBuffer.wrap(key.marshal());
                    while (buffer.hasRemaining()) {
                        channel.write(buffer);
                    }
                    channel.force(true);
                }
                moveIntoPlace(temporary, file);
            } finally {
                Files.deleteIfExists(temporary);
            }
        } catch (FileAlreadyExistsException raced) {
            // another process created it between our read and our move: its key is the node's key
            try {
                return load(file);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the node key " + file, e);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write a new node key to " + file, e);
        }
        LOG.atInfo().addKeyValue("file", String.valueOf(file))
                .addKeyValue("peer", String.valueOf(PeerId.fromPublicKey(key.publicKey())))
                .log("created a new secp256k1 node key");
        return key;
    }

    // A hard link never replaces an existing file, so two nodes racing on one data directory cannot each keep a
    // different key; where links are not supported, an atomic move is the next best.
    private static void moveIntoPlace(Path temporary, Path file) throws IOException {
        try {
            Files.createLink(file, temporary);
        } catch (FileAlreadyExistsException exists) {
            throw exists;
        } catch (UnsupportedOperationException | FileSystemException linksNotSupported) {
            try {
                Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException notAtomic) {
                Files.move(temporary, file);
            }
        }
    }

    private static void warnIfReadableByOthers(Path file) {
        try {
            if (Files.getFileStore(file).supportsFileAttributeView("posix")) {
                Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file);
                if (!OWNER_ONLY.containsAll(permissions)) {
                    LOG.atWarn().addKeyValue("file", String.valueOf(file))
                            .addKeyValue("permissions", PosixFilePermissions.toString(permissions))
                            .log("the node key can be read by others; chmod 600 it");
                }
            }
        } catch (IOException e) {
            LOG.atDebug().addKeyValue("file", String.valueOf(file)).setCause(e).log("cannot check the node key's permissions");
        }
    }
}
