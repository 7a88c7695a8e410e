package io.wakurelay.archive.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.archive.PostgresConfig;
import io.wakurelay.archive.CommittedBatch;
import io.wakurelay.archive.TestEnvelopes;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.MessageHash;
import io.wakurelay.testkit.Eventually;
import io.wakurelay.testkit.PostgresServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;

/**
 * Issue 43's N9: a message the database refuses for a reason that will not change (here a CHECK constraint of the
 * fleet's schema refusing its content topic, SQLSTATE 23514) made its whole batch fail, and the batch was retried for
 * ever while the archive's upstream waited: archiving stalled. Now the batch is written in halves; the one message is
 * skipped, counted and logged at WARN with its hash; the rest are written. A connection failure still keeps the batch
 * and retries it.
 */
@Tag("process")
class RefusedMessagesTest {
    private static final String POISON = "/poison/1/refused/proto";

    @RegisterExtension
    static final PostgresServer postgres = new PostgresServer();

    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final Logger writerLog = (Logger) LoggerFactory.getLogger(PostgresWriter.class);

    @BeforeEach
    void listen() {
        log.start();
        writerLog.addAppender(log);
    }

    @AfterEach
    void stopListening() {
        writerLog.detachAppender(log);
        try {
            postgres.startServer();
        } catch (RuntimeException alreadyRunning) {
            // it is
        }
    }

    private static List<Envelope> envelopes(int count, int poisonAt) {
        List<Envelope> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            out.add(TestEnvelopes.envelope(TestEnvelopes.PUBSUB, i == poisonAt ? POISON : TestEnvelopes.CONTENT, i, 64,
                    TestEnvelopes.BASE_TIME + i));
        }
        return out;
    }

    private static Set<MessageHash> stored(PostgresConfig config) {
        Set<MessageHash> hashes = new HashSet<>();
        for (String hex : postgres.psql(config.database(), "SELECT messageHash FROM messages").split("\n")) {
            if (!hex.isBlank()) {
                hashes.add(Hex.hash(hex.trim()));
            }
        }
        return hashes;
    }

    private static double refusedCount(SimpleMeterRegistry registry) {
        return registry.get("waku.postgres.messages.refused").counter().count();
    }

    @Test
    void theMessageTheDatabaseRefusesIsSkippedWithAWarnNamingItAndTheRestOfItsBatchIsWritten() {
        PostgresConfig config = PostgresFixture.config(postgres);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        List<Envelope> envelopes = envelopes(100, 37);
        MessageHash poison = envelopes.get(37).hash();
        List<CommittedBatch> acknowledged = new CopyOnWriteArrayList<>();
        AtomicLong taken = new AtomicLong();
        try (PostgresArchive archive = PostgresArchive.open(config, registry)) {
            postgres.psql(config.database(),
                    "ALTER TABLE messages ADD CONSTRAINT refuses_poison CHECK (contentTopic <> '" + POISON + "')");
            archive.write(Flux.fromIterable(envelopes)).subscribe(batch -> {
                acknowledged.add(batch);
                taken.addAndGet(batch.envelopes());
            });
            Eventually.until("all 100 envelopes acknowledged", Duration.ofSeconds(30), () -> taken.get() == 100);
            Set<MessageHash> inDatabase = stored(config);
            assertThat(inDatabase).hasSize(99).doesNotContain(poison);
            assertThat(acknowledged.stream().mapToInt(b -> b.stored().size()).sum()).isEqualTo(99);
            assertThat(refusedCount(registry)).isEqualTo(1);
            assertThat(log.list).filteredOn(e -> e.getLevel() == ch.qos.logback.classic.Level.WARN)
                    .extracting(e -> e.getFormattedMessage() + e.getKeyValuePairs().stream() // hash and reason as pairs
                            .map(pair -> " " + pair.key + "=" + pair.value).collect(java.util.stream.Collectors.joining()))
                    .anySatisfy(m -> assertThat(m).contains(" hash=" + poison.toHex(), "23514"));
            assertThat(archive.healthy()).isTrue();
        }
        Eventually.until("every envelope released", () -> envelopes.stream().allMatch(e -> e.refCnt() == 0));
    }

    @Test
    void aConnectionFailureStillKeepsTheBatchAndRetriesItAndRefusesNothingMore() {
        PostgresConfig config = PostgresFixture.config(postgres);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        List<Envelope> envelopes = envelopes(50, 10);
        AtomicLong taken = new AtomicLong();
        try (PostgresArchive archive = PostgresArchive.open(config, registry)) {
            postgres.psql(config.database(),
                    "ALTER TABLE messages ADD CONSTRAINT refuses_poison CHECK (contentTopic <> '" + POISON + "')");
            postgres.stopServer("fast");
            archive.write(Flux.fromIterable(envelopes)).subscribe(batch -> taken.addAndGet(batch.envelopes()));
            Eventually.until("the writer failed and holds the batch", Duration.ofSeconds(30),
                    () -> registry.get("waku.archive.errors").tag("type", "insert_failure").counter().count() >= 2);
            assertThat(taken.get()).as("nothing acknowledged while the database is down").isZero();
            assertThat(refusedCount(registry)).as("a connection failure refuses no message").isZero();
            postgres.startServer();
            Eventually.until("all 50 acknowledged once the database is back", Duration.ofSeconds(60),
                    () -> taken.get() == 50);
            assertThat(stored(config)).hasSize(49).doesNotContain(envelopes.get(10).hash());
            assertThat(refusedCount(registry)).isEqualTo(1);
        }
    }
}
