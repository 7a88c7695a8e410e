package io.wakurelay.archive.rocksdb;

import io.netty.buffer.ByteBufUtil;
import io.wakurelay.archive.ArchiveFixture;
import io.wakurelay.archive.TestEnvelopes;
import io.wakurelay.protocol.Envelope;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.RocksIterator;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The writer composes keys and values in reused direct buffers with cached topic bytes; what reaches RocksDB must be
 * exactly the layouts of {@link Keys} that queries and retention read, for every topic pair, short or long, ASCII or
 * not, whether the message arrived in one buffer or several.
 */
class BatchAssemblerTest {
    @TempDir
    Path dir;

    @Test
    void everyFamilyHoldsTheKeysLayoutsOfEachStoredMessage() {
        // 243 bytes, near the protocol's limit of 256: its index keys outgrow the scratch buffers' first size
        String longContentTopic = "/app/1/" + "x".repeat(230) + "/proto";
        List<Envelope> envelopes = List.of(
                TestEnvelopes.envelope("/waku/2/rs/0/1", "/app/1/ü/proto", 1, 100, TestEnvelopes.BASE_TIME + 1),
                TestEnvelopes.envelope("/waku/2/rs/0/1", longContentTopic, 2, 100, TestEnvelopes.BASE_TIME - 2),
                TestEnvelopes.envelope("/waku/2/rs/0/1", "/app/1/ü/proto", 3, 100, TestEnvelopes.BASE_TIME + 3),
                TestEnvelopes.composite(4, 150_000, 3),
                // smaller than the one before: gathered into a buffer larger than itself
                TestEnvelopes.composite(5, 70_000, 2));
        Map<String, byte[]> expected = new LinkedHashMap<>();
        for (Envelope e : envelopes) {
            expected.putAll(entriesOf(e));
        }
        try (RocksArchive archive = RocksFixture.open(dir)) {
            ArchiveFixture.writeAll(archive, envelopes);
            Map<String, byte[]> stored = new LinkedHashMap<>();
            for (ArchiveDatabase.Family family : List.of(ArchiveDatabase.Family.MESSAGES, ArchiveDatabase.Family.MESSAGE_INFO,
                    ArchiveDatabase.Family.BY_TIME, ArchiveDatabase.Family.BY_PUBSUB, ArchiveDatabase.Family.BY_CONTENT)) {
                stored.putAll(entries(archive, family));
            }
            assertThat(stored.keySet()).containsExactlyInAnyOrderElementsOf(expected.keySet());
            for (Map.Entry<String, byte[]> entry : expected.entrySet()) {
                assertThat(stored.get(entry.getKey())).as(entry.getKey()).isEqualTo(entry.getValue());
            }
        }
    }

    /** What {@link Keys} says each family holds for {@code e}, as "family key-in-hex" → value. */
    private static Map<String, byte[]> entriesOf(Envelope e) {
        byte[] hash = e.hash().toByteArray();
        byte[] tail = Keys.tail(e.indexTimestamp(), hash);
        byte[] pubsub = Keys.utf8(e.pubsubTopic());
        byte[] content = Keys.utf8(e.message().contentTopic());
        Map<String, byte[]> entries = new LinkedHashMap<>();
        entries.put(name(ArchiveDatabase.Family.MESSAGES, tail), ByteBufUtil.getBytes(e.messageBytes()));
        entries.put(name(ArchiveDatabase.Family.MESSAGE_INFO, hash), Keys.infoValue(e.indexTimestamp(), pubsub));
        entries.put(name(ArchiveDatabase.Family.BY_TIME, tail), Keys.timeValue(e.messageSize(), pubsub, content));
        entries.put(name(ArchiveDatabase.Family.BY_PUBSUB, Keys.concat(Keys.pubsubPrefix(e.pubsubTopic()), tail)), Keys.EMPTY);
        entries.put(name(ArchiveDatabase.Family.BY_CONTENT, Keys.concat(Keys.contentPrefix(pubsub, content), tail)), Keys.EMPTY);
        return entries;
    }

    private static Map<String, byte[]> entries(RocksArchive archive, ArchiveDatabase.Family family) {
        Map<String, byte[]> entries = new LinkedHashMap<>();
        try (RocksIterator it = archive.database().db().newIterator(archive.database().handle(family))) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                entries.put(name(family, it.key()), it.value());
            }
        }
        return entries;
    }

    private static String name(ArchiveDatabase.Family family, byte[] key) {
        return family.cfName + " " + ByteBufUtil.hexDump(key);
    }
}
