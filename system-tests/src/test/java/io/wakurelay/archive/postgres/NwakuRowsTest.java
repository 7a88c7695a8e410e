package io.wakurelay.archive.postgres;

import com.google.protobuf.ByteString;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.archive.PostgresConfig;
import io.wakurelay.archive.ArchiveFixture;
import io.wakurelay.archive.CommittedBatch;
import io.wakurelay.archive.StoreQuery;
import io.wakurelay.archive.StoredMessage;
import io.wakurelay.archive.TestEnvelopes;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.WallClock;
import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.testkit.PostgresServer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Rows as nwaku writes them (its InsertRow and InsertRowMessagesLookup statements: lower-case hex hash, payload and
 * meta, "0" in id, an empty meta as NULL) are what this node writes, and what it serves back as the same message.
 */
@Tag("process")
class NwakuRowsTest {
    @RegisterExtension
    static final PostgresServer postgres = new PostgresServer();

    private static WakuMessage message(int index, byte[] meta, int version) {
        WakuMessage.Builder b = WakuMessage.newBuilder().setPayload(ByteString.copyFrom(new byte[]{1, 2, 3, (byte) index}))
                .setContentTopic("/app/1/chat/proto").setTimestamp(WallClock.nowNanos() + index);
        if (meta.length > 0) {
            b.setMeta(ByteString.copyFrom(meta));
        }
        if (version != 0) {
            b.setVersion(version);
        }
        return b.build();
    }

    @Test
    void aMessageThisNodeWroteIsARowAsNwakuWritesIt() {
        PostgresConfig config = PostgresFixture.config(postgres);
        String db = config.database();
        Envelope withMeta = TestEnvelopes.encode(TestEnvelopes.PUBSUB, message(1, new byte[]{(byte) 0xAB, 0x01}, 1));
        Envelope withoutMeta = TestEnvelopes.encode(TestEnvelopes.PUBSUB, message(2, new byte[0], 0));
        String hash1 = HexFormat.of().formatHex(withMeta.hash().toByteArray());
        String hash2 = HexFormat.of().formatHex(withoutMeta.hash().toByteArray());
        long ts1 = withMeta.message().timestamp();
        try (PostgresArchive archive = PostgresArchive.open(config, new SimpleMeterRegistry())) {
            List<CommittedBatch> batches = ArchiveFixture.writeAll(archive, List.of(withMeta, withoutMeta));
            assertThat(ArchiveFixture.stored(batches)).hasSize(2);
        }
        assertThat(postgres.psql(db, "SELECT id, messageHash, pubsubTopic, contentTopic, payload, version, timestamp, meta "
                + "FROM messages WHERE messageHash = '" + hash1 + "'").trim())
                .isEqualTo("0|" + hash1 + "|" + TestEnvelopes.PUBSUB + "|/app/1/chat/proto|01020301|1|" + ts1 + "|ab01");
        assertThat(postgres.psql(db, "SELECT meta IS NULL, version FROM messages WHERE messageHash = '" + hash2 + "'").trim())
                .isEqualTo("t|0");
        assertThat(postgres.psql(db, "SELECT count(*) FROM messages_lookup WHERE (messageHash = '" + hash1 + "' AND timestamp = "
                + ts1 + ") OR messageHash = '" + hash2 + "'").trim()).isEqualTo("2");
    }

    @Test
    void aMessageNwakuWroteIsServedAsTheSameMessageUnderItsHash() {
        PostgresConfig config = PostgresFixture.config(postgres);
        String db = config.database();
        try (PostgresArchive archive = PostgresArchive.open(config, new SimpleMeterRegistry())) {
            WakuMessage original = message(3, new byte[]{0x73, 0x75}, 2);
            Envelope envelope = TestEnvelopes.encode("/waku/2/rs/1/4", original);
            String hash = HexFormat.of().formatHex(envelope.hash().toByteArray());
            var messageHash = envelope.hash();
            envelope.release();
            // what nwaku's put does: its two statements, values as text, meta NULL when empty
            postgres.psql(db, "INSERT INTO messages (id, messageHash, pubsubTopic, contentTopic, payload, version, timestamp, meta) "
                    + "VALUES ('0', '" + hash + "', '/waku/2/rs/1/4', '/app/1/chat/proto', '01020303', '2', '" + original.getTimestamp()
                    + "', CASE WHEN '7375' = '' THEN NULL ELSE '7375' END) ON CONFLICT DO NOTHING; "
                    + "INSERT INTO messages_lookup (messageHash, timestamp) VALUES ('" + hash + "', '" + original.getTimestamp()
                    + "') ON CONFLICT DO NOTHING");
            List<StoredMessage> found = archive.query(StoreQuery.builder().hashes(messageHash).includeData(true).build()).messages();
            assertThat(found).hasSize(1);
            assertThat(found.get(0).hash()).isEqualTo(messageHash);
            assertThat(found.get(0).pubsubTopic()).isEqualTo("/waku/2/rs/1/4");
            assertThat(found.get(0).message()).isEqualTo(original);
            // and it pages by topic, with a cursor found in messages_lookup
            List<StoredMessage> byTopic = archive.query(StoreQuery.builder().pubsubTopic("/waku/2/rs/1/4")
                    .contentTopics("/app/1/chat/proto").build()).messages();
            assertThat(byTopic).extracting(StoredMessage::hash).containsExactly(messageHash);
        }
    }

    @Test
    void aMessageTimestampedPastWhatAPartitionCanHoldIsSkippedAndCountedAndTheRestOfItsBatchIsStored() {
        PostgresConfig config = PostgresFixture.config(postgres);
        WakuMessage far = message(3, new byte[0], 0).toBuilder().setTimestamp(Long.MAX_VALUE - 1).build();
        Envelope beyond = TestEnvelopes.encode(TestEnvelopes.PUBSUB, far);
        Envelope now = TestEnvelopes.encode(TestEnvelopes.PUBSUB, message(4, new byte[0], 0));
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (PostgresArchive archive = PostgresArchive.open(config, registry)) {
            // its partition's upper bound overflowed: the batch failed, was retried for ever, and the writes stopped
            List<CommittedBatch> batches = ArchiveFixture.writeAll(archive, List.of(beyond, now));
            assertThat(ArchiveFixture.stored(batches)).containsExactly(now.hash());
            assertThat(registry.get("waku.archive.errors").tag("type", "invalid_message_future_timestamp").counter()
                    .count()).isEqualTo(1);
        }
    }
}
