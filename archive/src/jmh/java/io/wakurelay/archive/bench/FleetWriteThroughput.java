package io.wakurelay.archive.bench;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.archive.CommittedBatch;
import io.wakurelay.archive.MessageArchive;
import io.wakurelay.archive.PostgresConfig;
import io.wakurelay.archive.RetentionPolicy;
import io.wakurelay.archive.StoreDbUrl;
import io.wakurelay.archive.backends.ArchiveBackends;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.PayloadMix;
import io.wakurelay.protocol.WallClock;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Schedulers;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;

/**
 * A fleet of {@code NODES} archives writing one PostgreSQL database, each given every message (as every store node of a
 * fleet relays every message): {@code N} messages of the default payload mix (seed 42), each node's stream written at
 * once with the archive's default batching. Prints the wall time until every node acknowledged its last batch, the
 * fleet's throughput in distinct messages per second, what each node stored and skipped as a duplicate, and the
 * duplicates the database holds (rows minus distinct hashes: must be 0).
 *
 * <pre>java -cp archive/target/archive-benchmarks.jar io.wakurelay.archive.bench.FleetWriteThroughput URL NODES N</pre>
 * URL: {@code postgres://user@host:port/database}, an empty database.
 */
public final class FleetWriteThroughput {
    private FleetWriteThroughput() {
    }

    public static void main(String[] args) throws Exception {
        StoreDbUrl.Postgres pg = (StoreDbUrl.Postgres) StoreDbUrl.parse(args[0]);
        int nodes = Integer.parseInt(args[1]);
        int n = Integer.parseInt(args[2]);
        // no timestamp window: the messages are made before the run, their timestamps then (as before the archive had one)
        PostgresConfig postgres = pg.applyTo(PostgresConfig.builder()).build()
                .withCore(c -> c.retention(new RetentionPolicy.None()).timestampWindow(java.time.Duration.ZERO));
        int[] sizes = PayloadMix.parse(PayloadMix.DEFAULT_SPEC).sizes(PayloadMix.DEFAULT_SEED, n);
        long now = WallClock.nowNanos();
        List<MessageArchive> archives = new ArrayList<>();
        List<List<Envelope>> streams = new ArrayList<>();
        long bytes = 0;
        for (int node = 0; node < nodes; node++) {
            archives.add(ArchiveBackends.open(postgres, new SimpleMeterRegistry()));
            // each node gets its own copies of the same messages, as each receives them from the network
            SplittableRandom random = new SplittableRandom(PayloadMix.DEFAULT_SEED);
            List<Envelope> stream = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                stream.add(BenchEnvelopes.envelope(random, "/waku/2/default-content/proto", sizes[i], now + i));
                if (node == 0) {
                    bytes += sizes[i];
                }
            }
            streams.add(stream);
        }
        long started = System.nanoTime();
        List<CompletableFuture<List<CommittedBatch>>> writing = new ArrayList<>();
        for (int node = 0; node < nodes; node++) {
            writing.add(archives.get(node).write(Flux.fromIterable(streams.get(node))).subscribeOn(Schedulers.boundedElastic())
                    .collectList().toFuture());
        }
        System.out.println("node,stored,duplicates");
        for (int node = 0; node < nodes; node++) {
            List<CommittedBatch> batches = writing.get(node).join();
            System.out.printf(Locale.ROOT, "%d,%d,%d%n", node, batches.stream().mapToInt(b -> b.stored().size()).sum(),
                    batches.stream().mapToInt(CommittedBatch::duplicates).sum());
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        archives.forEach(MessageArchive::close);
        try (Connection c = DriverManager.getConnection(postgres.jdbcUrl(), postgres.user(), postgres.password());
             Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT count(*), count(DISTINCT messageHash) FROM messages")) {
            r.next();
            System.out.println("nodes,messages,seconds,distinct_msg_per_s,payload_mb_per_s,rows,distinct_hashes,duplicates_stored");
            System.out.printf(Locale.ROOT, "%d,%d,%.1f,%.0f,%.1f,%d,%d,%d%n", nodes, n, seconds, n / seconds, bytes / seconds / 1e6,
                    r.getLong(1), r.getLong(2), r.getLong(1) - r.getLong(2));
        }
    }
}
