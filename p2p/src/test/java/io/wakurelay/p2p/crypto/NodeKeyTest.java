package io.wakurelay.p2p.crypto;

import static io.wakurelay.p2p.crypto.Vectors.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NodeKeyTest {

    @TempDir
    Path dir;

    @Test
    void theFirstStartCreatesASecp256k1KeyThatLaterStartsReadBack() throws Exception {
        Path dataDir = dir.resolve("data");

        PrivateKey created = NodeKey.loadOrCreate(dataDir);
        PrivateKey loaded = NodeKey.loadOrCreate(dataDir);

        assertThat(created.type()).isEqualTo(KeyType.SECP256K1);
        assertThat(loaded).isEqualTo(created);
        assertThat(Files.readAllBytes(dataDir.resolve("nodekey"))).isEqualTo(created.marshal());
        try (Stream<Path> files = Files.list(dataDir)) {
            assertThat(files).as("no temporary file is left").containsExactly(dataDir.resolve("nodekey"));
        }
    }

    @Test
    void theCreatedKeyFileIsReadableByItsOwnerOnly() throws Exception {
        NodeKey.loadOrCreate(dir);

        if (Files.getFileStore(dir).supportsFileAttributeView("posix")) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("nodekey"))))
                    .isEqualTo("rw-------");
        }
    }

    @Test
    void aKeyFileWrittenByAnotherLibp2pIsRead() throws Exception {
        Files.write(dir.resolve("nodekey"), bytes("spec.ed25519.private"));

        PrivateKey key = NodeKey.loadOrCreate(dir);

        assertThat(PeerId.fromPublicKey(key.publicKey()).toBase58())
                .isEqualTo("12D3KooWBtg3aaRMjxwedh83aGiUkwSxDwUZkzuJcfaqUmo7R3pq");
    }

    @Test
    void aCorruptKeyFileIsAClearErrorAndIsLeftAsItIs() throws Exception {
        Path file = dir.resolve("nodekey");
        byte[] corrupt = {0x08, 0x02, 0x12, 0x20, 1, 2, 3};
        Files.write(file, corrupt);

        assertThatThrownBy(() -> NodeKey.loadOrCreate(dir))
                .isInstanceOf(KeyFormatException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("corrupt");
        assertThat(Files.readAllBytes(file)).isEqualTo(corrupt);
    }

    @Test
    void anEmptyKeyFileIsCorruptTooNotAMissingKey() throws Exception {
        Files.write(dir.resolve("nodekey"), new byte[0]);

        assertThatThrownBy(() -> NodeKey.loadOrCreate(dir)).isInstanceOf(KeyFormatException.class);
        assertThat(Files.size(dir.resolve("nodekey"))).isZero();
    }
}
