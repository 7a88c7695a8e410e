package io.wakurelay.node;

import io.wakurelay.testkit.Eventually;
import io.wakurelay.archive.RetentionPolicy;
import io.wakurelay.archive.RocksConfig;
import io.wakurelay.archive.Durability;
import com.google.protobuf.ByteString;
import io.wakurelay.protocol.MessageHasher;
import io.wakurelay.protocol.PathCounters;
import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.testkit.SmallDisk;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A node whose data directory is on a real 64 MiB tmpfs that fills up while it takes messages over REST: /health
 * turns 503 and says why, publishing answers 503 once the queues in front of the stuck archive are full
 * (backpressure, not memory), and when space returns /health is 200 again and every message answered 200 is in the
 * store; a restart finds the archive intact. Needs permission to mount (root, as CI runs); skipped elsewhere, as
 * DiskFullRecoveryTest is.
 */
class FullDiskHealthTest {
    private static final String TOPIC = "/waku/2/rs/0/0";
    private static final String CONTENT = "/app/1/disk/proto";

    @RegisterExtension
    final SmallDisk disk = new SmallDisk("64m");

    private WakuNode start(Path data, Durability durability) {
        return WakuNode.start(TestNodes.local(data).metrics(TestNodes.metrics())
                .archive(RocksConfig.builder().dataDir(data.resolve("store")).writeBufferBytes(4L << 20).blockCacheBytes(8L << 20)
                        .durability(durability).build().withCore(c -> c.retention(new RetentionPolicy.None()))).build());
    }

    @ParameterizedTest
    @EnumSource(value = Durability.class, names = {"WAL", "FLUSH"})
    void healthIs503WhileTheDiskIsFullAndEverythingAcceptedIsStoredWhenSpaceReturns(Durability durability) throws Exception {
        Path data = disk.root().resolve("node");
        List<String> accepted = new ArrayList<>();
        int busy = 0;
        String unhealthy;
        try (WakuNode node = start(data, durability)) {
            Http rest = new Http(node.restAddress());
            Path filler = disk.fill("filler");
            MessageHasher hasher = new MessageHasher(new PathCounters());
            byte[] payload = new byte[20_000];
            new Random(3).nextBytes(payload);
            String body = Base64.getEncoder().encodeToString(payload);
            unhealthy = null;
            // publish until the node says it is unhealthy and pushes back (bounded: at most 3,000 attempts)
            for (int i = 0; i < 3000 && (unhealthy == null || busy == 0); i++) {
                WakuMessage m = WakuMessage.newBuilder().setPayload(ByteString.copyFrom(payload)).setContentTopic(CONTENT)
                        .setMeta(ByteString.copyFromUtf8("n" + i)).setTimestamp(WakuNode.nowNanos()).build();
                Http.Reply reply = rest.post("/relay/v1/messages/" + Http.topic(TOPIC), "{\"payload\":\"" + body + "\",\"contentTopic\":\"" + CONTENT
                        + "\",\"meta\":\"" + Base64.getEncoder().encodeToString(m.getMeta().toByteArray()) + "\",\"timestamp\":" + m.getTimestamp() + "}");
                if (reply.status() == 200) {
                    accepted.add(hasher.hash(TOPIC, m).toHex());
                } else {
                    assertThat(reply.status()).as(reply.body()).isEqualTo(503);
                    assertThat(reply.json().get("error").asText()).isNotBlank();
                    busy++;
                    Thread.sleep(10);
                }
                if (i % 10 == 0 && unhealthy == null) {
                    Http.Reply health = rest.get("/health");
                    if (health.status() == 503) {
                        unhealthy = health.body();
                    }
                }
            }
            assertThat(unhealthy).as("/health turned 503 while the disk was full").isNotNull().contains("No space left on device");
            assertThat(busy).as("publishing was pushed back (503) once the queues before the archive were full").isPositive();
            String metrics = node.metrics().scrape();
            assertThat(Http.metric(metrics, "waku_archive_errors_total{type=\"insert_failure\"}")).isPositive();
            assertThat(Http.metric(metrics, "waku_archive_pending")).as("the archive holds at most maxPendingMessages").isLessThanOrEqualTo(256);

            Files.delete(filler);
            Eventually.until("/health is 200 again", Duration.ofSeconds(60), () -> rest.get("/health").status() == 200);
            Eventually.until("every message answered 200 is stored", Duration.ofSeconds(60),
                    () -> ArchivedMessages.stored(rest, accepted) == accepted.size());
            System.out.printf("FullDiskHealthTest, " + durability.label() + ": %d messages answered 200 (20 kB each), %d answered 503 while the disk was full; "
                            + "%.0f failed commits; all %d stored once space returned; /health said: %s%n",
                    accepted.size(), busy, Http.metric(metrics, "waku_archive_errors_total{type=\"insert_failure\"}"), accepted.size(), unhealthy);
        }
        try (WakuNode reopened = start(data, durability)) {
            Http rest = new Http(reopened.restAddress());
            assertThat(ArchivedMessages.stored(rest, accepted)).as("the archive reopens intact").isEqualTo(accepted.size());
            assertThat(reopened.archive().messageCount()).isEqualTo(accepted.size());
        }
    }
}
