package io.wakurelay.archive.postgres;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.archive.ArchiveStorageException;
import io.wakurelay.archive.EnvelopeSource;
import io.wakurelay.archive.PostgresConfig;
import io.wakurelay.protocol.MessageHash;
import io.wakurelay.testkit.Eventually;
import io.wakurelay.testkit.PostgresServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.Disposable;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The write path keeps its promises when PostgreSQL goes away: a restart under load loses nothing acknowledged, the
 * archive says NOT ready with the reason meanwhile and holds upstream back, a slow database slows the writer's
 * upstream, and a database that is down at start is a clear message, waited for as long as the config says.
 */
@Tag("process")
@Tag("slow")
class DatabaseOutageTest {
    @RegisterExtension
    static final PostgresServer postgres = new PostgresServer();

    @AfterEach
    void serverUp() {
        try {
            postgres.startServer();
        } catch (RuntimeException alreadyRunning) {
            // it is
        }
    }

    @Test
    void aDatabaseCrashAndRestartUnderLoadLosesNothingAcknowledged() {
        PostgresConfig config = PostgresFixture.config(postgres);
        List<MessageHash> acknowledged = new CopyOnWriteArrayList<>();
        AtomicLong envelopes = new AtomicLong();
        EnvelopeSource source = new EnvelopeSource(500);
        try (PostgresArchive archive = PostgresArchive.open(config, new SimpleMeterRegistry())) {
            Disposable writing = archive.write(source.flux().take(3_000, true))
                    .subscribe(batch -> {
                        acknowledged.addAll(batch.stored());
                        envelopes.addAndGet(batch.envelopes());
                    });
            Eventually.until("some batches acknowledged", () -> acknowledged.size() > 300);
            postgres.stopServer("immediate");
            Eventually.until("the archive says it is not writing, and why", () -> !archive.healthy()
                    && archive.lastWriteError().orElse("").startsWith("PostgreSQL"));
            int duringOutage = acknowledged.size();
            sleep(1_000);
            assertThat(acknowledged).hasSize(duringOutage);
            assertThat(source.requested.get() - envelopes.get()).isLessThanOrEqualTo(config.core().maxPendingMessages() + config.core().maxBatchMessages());
            postgres.startServer();
            // a batch whose commit answer was lost in the crash is retried: its rows then count as duplicates
            Eventually.until("all 3,000 acknowledged", Duration.ofSeconds(60), () -> envelopes.get() == 3_000);
            Eventually.until("healthy again", archive::healthy);
            Set<MessageHash> inDatabase = new HashSet<>();
            for (String hex : postgres.psql(config.database(), "SELECT messageHash FROM messages").split("\n")) {
                if (!hex.isBlank()) {
                    inDatabase.add(Hex.hash(hex.trim()));
                }
            }
            assertThat(inDatabase).containsAll(acknowledged);
            assertThat(inDatabase).hasSize(3_000);
            Eventually.until("every envelope released", source::allReleased);
        }
    }

    @Test
    void aSlowDatabaseHoldsTheWritersUpstreamBack() throws Exception {
        PostgresConfig config = PostgresFixture.config(postgres).withCore(c -> c.maxBatchMessages(16).maxPendingMessages(64));
        AtomicLong acknowledged = new AtomicLong();
        Queue<String> violations = new ConcurrentLinkedQueue<>();
        EnvelopeSource source = new EnvelopeSource(100);
        try (PostgresArchive archive = PostgresArchive.open(config, new SimpleMeterRegistry());
             Connection operator = PostgresFixtureSql.connect(postgres, config.database());
             Statement statement = operator.createStatement()) {
            operator.setAutoCommit(false);
            // an operator's long transaction holds the lookup table: every insert waits for it
            statement.execute("LOCK TABLE messages_lookup IN ACCESS EXCLUSIVE MODE");
            Disposable writing = archive.write(source.flux().take(500, true).doOnRequest(n -> {
                        long ahead = source.requested.get() - acknowledged.get();
                        if (ahead > 64) {
                            violations.add("requested " + ahead + " ahead of acknowledgements");
                        }
                    }))
                    .subscribe(batch -> acknowledged.addAndGet(batch.envelopes()));
            Eventually.until("the writer filled its pending budget", () -> archive.pendingMessages() == 64);
            sleep(500);
            assertThat(acknowledged.get()).isZero();
            assertThat(source.requested.get()).isEqualTo(64);
            operator.rollback();
            Eventually.until("everything acknowledged", () -> acknowledged.get() == 500);
            assertThat(violations).isEmpty();
            writing.dispose();
        }
    }

    @Test
    void anIdleArchiveSaysNotReadyWithTheReasonWhileTheDatabaseIsDown() {
        try (PostgresArchive archive = PostgresArchive.open(PostgresFixture.config(postgres), new SimpleMeterRegistry())) {
            assertThat(archive.healthy()).isTrue();
            postgres.stopServer("fast");
            Eventually.until("not healthy, with the reason", Duration.ofSeconds(30), () -> !archive.healthy()
                    && archive.lastWriteError().orElse("").startsWith("PostgreSQL"));
            postgres.startServer();
            Eventually.until("healthy again", Duration.ofSeconds(30), archive::healthy);
        }
    }

    @Test
    void aDatabaseDownAtStartIsAClearMessageThatNeverShowsThePassword() {
        PostgresConfig config = PostgresFixture.config(postgres);
        postgres.stopServer("fast");
        assertThatThrownBy(() -> PostgresArchive.open(config, new SimpleMeterRegistry()))
                .isInstanceOf(ArchiveStorageException.class)
                .hasMessageStartingWith("cannot reach the PostgreSQL database at 127.0.0.1:" + postgres.port() + "/"
                        + config.database() + " as " + PostgresServer.USER + ": PostgreSQL: ")
                .message().doesNotContain(PostgresServer.PASSWORD);
    }

    @Test
    void aDatabaseThatComesUpWithinTheStartWaitIsUsed() {
        PostgresConfig config = PostgresFixture.config(postgres);
        PostgresConfig waiting = config.toBuilder().startWait(Duration.ofSeconds(60)).build();
        postgres.stopServer("fast");
        CompletableFuture<Void> later = CompletableFuture.runAsync(() -> {
            sleep(2_000);
            postgres.startServer();
        });
        long start = System.nanoTime();
        try (PostgresArchive archive = PostgresArchive.open(waiting, new SimpleMeterRegistry())) {
            assertThat(archive.healthy()).isTrue();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThan(Duration.ofSeconds(1));
        }
        later.join();
    }

    @Test
    void aWrongPasswordFailsAtOnceWhateverTheStartWait() {
        PostgresConfig config = PostgresFixture.config(postgres);
        PostgresConfig wrong = config.toBuilder().password("not-it").startWait(Duration.ofSeconds(60)).build();
        long start = System.nanoTime();
        assertThatThrownBy(() -> PostgresArchive.open(wrong, new SimpleMeterRegistry()))
                .isInstanceOf(ArchiveStorageException.class)
                .hasMessageContaining("password authentication failed")
                .message().doesNotContain("not-it");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
