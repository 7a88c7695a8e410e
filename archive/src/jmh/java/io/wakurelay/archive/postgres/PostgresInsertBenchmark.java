package io.wakurelay.archive.postgres;

import com.google.protobuf.UnsafeByteOperations;
import io.netty.buffer.PooledByteBufAllocator;
import io.wakurelay.archive.PostgresConfig;
import io.wakurelay.archive.StoreDbUrl;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.EnvelopeEncoder;
import io.wakurelay.protocol.MessageValidator;
import io.wakurelay.protocol.PathCounters;
import io.wakurelay.protocol.PayloadMix;
import io.wakurelay.protocol.ProtocolLimits;
import io.wakurelay.protocol.WakuMessageView;
import io.wakurelay.protocol.WallClock;
import io.wakurelay.protocol.proto.WakuMessage;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * How a batch goes into nwaku's tables (docs/adr/0062): the archive's multi-row INSERT ... ON CONFLICT DO NOTHING
 * ({@link BatchInsert}), against COPY, which has no ON CONFLICT: into a temporary table and on with INSERT ... SELECT
 * ... ON CONFLICT ({@code copy-staged}), or straight into the tables after a look-up of the batch's hashes
 * ({@code copy-direct}; in a fleet another node can insert between the look-up and the COPY, and the batch then fails
 * and is retried). Each with the server's default TOAST compression (pglz) or lz4. 2,000 messages of the default payload mix (seed 42) in batches of 64, each batch one transaction,
 * into empty tables; one operation per message.
 *
 * <p>Needs a PostgreSQL server: {@code -p url=postgres://user@127.0.0.1:5432/database} (an empty database, or one with
 * the archive's schema; its tables are emptied).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g", "-XX:MaxDirectMemorySize=2g"})
public class PostgresInsertBenchmark {
    static final int MESSAGES = 2_000;
    static final int BATCH = 64;

    @Param({"postgres://wakurelay@127.0.0.1:5432/bench"})
    public String url;

    @Param({"insert", "copy-staged", "copy-direct"})
    public String mode;

    /** How the server compresses the TOASTed payloads: its default ({@code pglz}) or {@code lz4} (a session setting). */
    @Param({"pglz", "lz4"})
    public String compression;

    private final List<List<Envelope>> batches = new ArrayList<>();
    private ConnectionPool pool;
    private final BatchInsert insert = new BatchInsert(BATCH);

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        StoreDbUrl.Postgres pg = (StoreDbUrl.Postgres) StoreDbUrl.parse(url);
        pool = ConnectionPool.create(pg.applyTo(PostgresConfig.builder()).statementTimeout(Duration.ofMinutes(5)).build());
        Partitions partitions = new Partitions();
        long now = WallClock.nowNanos();
        try (Connection c = pool.connection()) {
            NwakuSchema.migrate(c);
            partitions.refresh(c);
            partitions.ensureNowAndNext(c, now);
        }
        EnvelopeEncoder encoder = new EnvelopeEncoder(new MessageValidator(ProtocolLimits.DEFAULTS.withMaxClockDrift(Duration.ZERO),
                System::nanoTime), new PathCounters());
        int[] sizes = PayloadMix.parse(PayloadMix.DEFAULT_SPEC).sizes(PayloadMix.DEFAULT_SEED, MESSAGES);
        SplittableRandom random = new SplittableRandom(PayloadMix.DEFAULT_SEED);
        List<Envelope> batch = new ArrayList<>();
        for (int i = 0; i < MESSAGES; i++) {
            byte[] payload = new byte[sizes[i]];
            random.nextBytes(payload);
            WakuMessage m = WakuMessage.newBuilder().setPayload(UnsafeByteOperations.unsafeWrap(payload))
                    .setContentTopic("/waku/2/default-content/proto").setTimestamp(now + i).build();
            batch.add(encoder.encode("/waku/2/rs/0/0", m, PooledByteBufAllocator.DEFAULT));
            if (batch.size() == BATCH) {
                batches.add(batch);
                batch = new ArrayList<>();
            }
        }
        if (!batch.isEmpty()) {
            batches.add(batch);
        }
    }

    @Setup(Level.Iteration)
    public void empty() throws SQLException {
        try (Connection c = pool.connection(); Statement s = c.createStatement()) {
            s.execute("TRUNCATE messages, messages_lookup");
            s.execute("CHECKPOINT");
        }
    }

    @Benchmark
    @OperationsPerInvocation(MESSAGES)
    public int write() throws Exception {
        int stored = 0;
        try (Connection c = pool.connection()) {
            try (Statement s = c.createStatement()) {
                s.execute("SET default_toast_compression = " + compression);
            }
            for (List<Envelope> rows : batches) {
                c.setAutoCommit(false);
                stored += switch (mode) {
                    case "insert" -> insert.insert(c, rows).size();
                    case "copy-staged" -> copyStaged(c, rows);
                    case "copy-direct" -> copyDirect(c, rows);
                    default -> throw new IllegalArgumentException(mode);
                };
                c.commit();
                c.setAutoCommit(true);
            }
        }
        if (stored != MESSAGES) {
            throw new IllegalStateException("stored " + stored);
        }
        return stored;
    }

    private static int copyStaged(Connection c, List<Envelope> rows) throws Exception {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TEMP TABLE IF NOT EXISTS incoming (LIKE messages INCLUDING DEFAULTS) ON COMMIT DELETE ROWS");
        }
        copy(c, "incoming", rows);
        int inserted = 0;
        try (Statement s = c.createStatement()) {
            try (ResultSet r = s.executeQuery("INSERT INTO messages SELECT * FROM incoming ON CONFLICT DO NOTHING RETURNING messageHash")) {
                while (r.next()) {
                    inserted++;
                }
            }
            s.execute("INSERT INTO messages_lookup (messageHash, timestamp) SELECT messageHash, timestamp FROM incoming ON CONFLICT DO NOTHING");
        }
        return inserted;
    }

    private static int copyDirect(Connection c, List<Envelope> rows) throws Exception {
        Set<String> known = new HashSet<>();
        try (PreparedStatement s = c.prepareStatement("SELECT messageHash FROM messages_lookup WHERE messageHash = ANY (?)")) {
            s.setArray(1, c.createArrayOf("varchar", rows.stream().map(e -> Hex.of(e.hash())).toArray()));
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    known.add(r.getString(1));
                }
            }
        }
        List<Envelope> fresh = rows.stream().filter(e -> !known.contains(Hex.of(e.hash()))).toList();
        copy(c, "messages", fresh);
        StringBuilder lookup = new StringBuilder();
        for (Envelope e : fresh) {
            lookup.append(Hex.of(e.hash())).append('\t').append(e.message().timestamp()).append('\n');
        }
        CopyIn in = c.unwrap(PGConnection.class).getCopyAPI().copyIn("COPY messages_lookup (messageHash, timestamp) FROM STDIN");
        byte[] bytes = lookup.toString().getBytes(StandardCharsets.UTF_8);
        in.writeToCopy(bytes, 0, bytes.length);
        in.endCopy();
        return fresh.size();
    }

    /** COPY in text format: tab-separated, {@code \N} for NULL; topics hold no control characters (they are validated). */
    private static void copy(Connection c, String table, List<Envelope> rows) throws Exception {
        CopyIn in = c.unwrap(PGConnection.class).getCopyAPI().copyIn("COPY " + table
                + " (id, messageHash, pubsubTopic, contentTopic, payload, version, timestamp, meta) FROM STDIN");
        ByteArrayOutputStream row = new ByteArrayOutputStream(256 * 1024);
        for (Envelope e : rows) {
            WakuMessageView m = e.message();
            row.reset();
            String text = "0\t" + Hex.of(e.hash()) + "\t" + e.pubsubTopic() + "\t" + m.contentTopic() + "\t" + Hex.of(m.payload())
                    + "\t" + m.version() + "\t" + m.timestamp() + "\t" + (m.metaSize() == 0 ? "\\N" : Hex.of(m.meta())) + "\n";
            byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            in.writeToCopy(bytes, 0, bytes.length);
        }
        in.endCopy();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        pool.close();
        for (List<Envelope> batch : batches) {
            batch.forEach(Envelope::release);
        }
    }
}
