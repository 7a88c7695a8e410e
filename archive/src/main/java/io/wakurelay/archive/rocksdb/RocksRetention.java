package io.wakurelay.archive.rocksdb;

import io.wakurelay.archive.ArchiveClosedException;
import io.wakurelay.archive.ArchiveStorageException;
import io.wakurelay.archive.RetentionPolicy;
import io.wakurelay.archive.RetentionRun;
import io.wakurelay.archive.common.ArchiveMeters;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;
import org.rocksdb.WriteBatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.scheduler.Scheduler;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * Applies the retention policy on the writer thread, oldest messages first, in chunks.
 *
 * <p>Cost: a pass reads the time index only over the range it deletes (from its first entry, which is cheap
 * even after many passes because earlier passes removed their range with one range tombstone, which iterators
 * skip in one step). Per chunk of at most {@value #CHUNK} messages (by default) it writes one WriteBatch: a point delete
 * of the message and of its hash entry (hashes are random, so those keys are not contiguous), and range
 * deletes for the contiguous parts: the time index range, and per pubsub topic and per content topic with
 * enough entries in the chunk the range of that topic's index between the chunk's first and last
 * (timestamp, hash) (point deletes for topics with few). The counters move in the
 * same batch. Between chunks the writer thread takes other work, so inserts are not held up for a whole pass.
 */
final class RocksRetention implements AutoCloseable {
    static final int CHUNK = 10_000;
    /** Fewer entries of one topic in a chunk are deleted one by one rather than with a range tombstone. */
    static final int MIN_ENTRIES_FOR_RANGE_DELETE = 16;
    private static final Logger log = LoggerFactory.getLogger(RocksRetention.class);

    private final RetentionPolicy policy;
    private final RocksDB db;
    private final MessageFamilies families;
    private final ArchiveCounters counters;
    private final BatchCommitter committer;
    private final ArchiveMeters metrics;
    private final Scheduler scheduler;
    private final LongSupplier wallClockNanos;
    private final int chunk;
    private final AtomicInteger runningPasses = new AtomicInteger();
    private final Set<CompletableFuture<RetentionRun>> open = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    RocksRetention(RetentionPolicy policy, ArchiveDatabase database, ArchiveCounters counters, BatchCommitter committer,
              ArchiveMeters metrics, Scheduler scheduler, LongSupplier wallClockNanos, int chunk) {
        this.policy = policy;
        this.db = database.db();
        this.families = MessageFamilies.of(database);
        this.counters = counters;
        this.committer = committer;
        this.metrics = metrics;
        this.scheduler = scheduler;
        this.wallClockNanos = wallClockNanos;
        this.chunk = chunk;
    }

    /** Runs a pass every {@code interval}; a tick that finds a pass still running is skipped. */
    Disposable schedule(Duration interval) {
        if (policy instanceof RetentionPolicy.None) {
            return () -> { };
        }
        return scheduler.schedulePeriodically(() -> {
            if (runningPasses.get() == 0) {
                start().exceptionally(e -> null);
            }
        }, interval.toNanos(), interval.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Starts a pass; the future completes when the policy is satisfied (or fails with what went wrong). */
    CompletableFuture<RetentionRun> start() {
        CompletableFuture<RetentionRun> done = new CompletableFuture<>();
        if (closed) {
            done.completeExceptionally(new ArchiveClosedException("the archive is closed"));
            return done;
        }
        open.add(done);
        done.whenComplete((run, error) -> open.remove(done));
        runningPasses.incrementAndGet();
        done.whenComplete((run, error) -> runningPasses.decrementAndGet());
        Pass pass = new Pass(done, System.nanoTime());
        if (!submit(pass::step)) {
            done.completeExceptionally(new ArchiveClosedException("the archive is closed"));
        }
        return done;
    }

    private boolean submit(Runnable task) {
        try {
            scheduler.schedule(task);
            return true;
        } catch (RejectedExecutionException stopped) {
            return false;
        }
    }

    /** Fails every pass not finished yet: the writer thread that would finish them is stopping. */
    @Override
    public void close() {
        closed = true;
        for (CompletableFuture<RetentionRun> pass : open) {
            pass.completeExceptionally(new ArchiveClosedException("the archive was closed during a retention pass"));
        }
    }

    private final class Pass {
        private final CompletableFuture<RetentionRun> done;
        private final long startedAt;
        private long deleted;
        private long deletedBytes;
        private long visited;

        Pass(CompletableFuture<RetentionRun> done, long startedAt) {
            this.done = done;
            this.startedAt = startedAt;
        }

        void step() {
            if (closed || done.isDone()) {
                return;
            }
            try {
                Chunk result = deleteChunk();
                deleted += result.messages();
                deletedBytes += result.bytes();
                visited += result.visited();
                if (result.mayHaveMore()) {
                    if (!submit(this::step)) {
                        done.completeExceptionally(new ArchiveClosedException("the archive was closed during a retention pass"));
                    }
                    return;
                }
                metrics.retentionRuns().increment();
                if (deleted > 0) {
                    log.atInfo().addKeyValue("retention", policy.spec()).addKeyValue("messages", deleted)
                            .addKeyValue("bytes", deletedBytes).addKeyValue("ms", (System.nanoTime() - startedAt) / 1_000_000)
                            .log("retention removed messages");
                }
                done.complete(new RetentionRun(policy, deleted, deletedBytes, visited));
            } catch (RocksDBException e) {
                metrics.retentionErrors().increment();
                log.atError().addKeyValue("retention", policy.spec()).addKeyValue("messages", deleted)
                        .addKeyValue("reason", RocksErrors.describe(e)).log("retention failed; the next pass tries again");
                done.completeExceptionally(new ArchiveStorageException("retention pass failed: " + RocksErrors.describe(e), e));
            } catch (RuntimeException e) {
                metrics.retentionErrors().increment();
                log.atError().addKeyValue("retention", policy.spec()).setCause(e).log("retention failed");
                done.completeExceptionally(e);
            }
        }
    }

    private record Entry(byte[] tail, int size, byte[] pubsubPrefix, byte[] contentPrefix) {
    }

    private record Chunk(long messages, long bytes, long visited, boolean mayHaveMore) {
    }

    private Chunk deleteChunk() throws RocksDBException {
        long maxMessages = chunk;
        long maxBytes = Long.MAX_VALUE;
        byte[] before = null;
        if (policy instanceof RetentionPolicy.Time time) {
            before = Keys.firstTailAt(time.cutoff(wallClockNanos.getAsLong()));
        } else if (policy instanceof RetentionPolicy.Capacity capacity) {
            maxMessages = Math.min(chunk, counters.messages() - capacity.maxMessages());
        } else if (policy instanceof RetentionPolicy.Size size) {
            maxBytes = counters.bytes() - size.maxBytes();
        } else {
            return new Chunk(0, 0, 0, false);
        }
        if (maxMessages <= 0 || maxBytes <= 0) {
            return new Chunk(0, 0, 0, false);
        }
        List<Entry> entries = oldest(before, maxMessages, maxBytes);
        if (entries.isEmpty()) {
            return new Chunk(0, 0, 0, false);
        }
        long bytes = delete(entries);
        metrics.retentionDeleted(policy).increment(entries.size());
        boolean chunkFull = entries.size() == chunk;
        return new Chunk(entries.size(), bytes, entries.size(), chunkFull || moreWanted());
    }

    private boolean moreWanted() {
        if (policy instanceof RetentionPolicy.Capacity capacity) {
            return counters.messages() > capacity.maxMessages();
        }
        if (policy instanceof RetentionPolicy.Size size) {
            return counters.bytes() > size.maxBytes();
        }
        return false;
    }

    /** The oldest entries of the time index: before {@code before} (when set), at most {@code maxMessages}, until {@code maxBytes} are covered. */
    private List<Entry> oldest(byte[] before, long maxMessages, long maxBytes) throws RocksDBException {
        List<Entry> entries = new ArrayList<>();
        long bytes = 0;
        try (Slice upper = before == null ? null : new Slice(before);
             ReadOptions read = new ReadOptions()) {
            if (upper != null) {
                read.setIterateUpperBound(upper);
            }
            try (RocksIterator it = db.newIterator(families.byTime(), read)) {
                for (it.seekToFirst(); it.isValid() && entries.size() < maxMessages && bytes < maxBytes; it.next()) {
                    byte[] value = it.value();
                    byte[] pubsub = Keys.pubsubOfTimeValue(value);
                    int size = Keys.sizeOfTimeValue(value);
                    entries.add(new Entry(it.key(), size, Keys.pubsubPrefix(Keys.string(pubsub)),
                            Keys.contentPrefix(pubsub, Keys.contentOfTimeValue(value))));
                    bytes += size;
                }
                it.status();
            }
        }
        return entries;
    }

    private long delete(List<Entry> entries) throws RocksDBException {
        long bytes = 0;
        // per topic prefix, the keys of the chunk under it, in order
        Map<ByteBuffer, List<byte[]>> pubsubKeys = new LinkedHashMap<>();
        Map<ByteBuffer, List<byte[]>> contentKeys = new LinkedHashMap<>();
        try (WriteBatch batch = new WriteBatch()) {
            for (Entry entry : entries) {
                byte[] hash = Arrays.copyOfRange(entry.tail(), Keys.TIMESTAMP_BYTES, Keys.TAIL_BYTES);
                batch.delete(families.messageInfo(), hash);
                pubsubKeys.computeIfAbsent(ByteBuffer.wrap(entry.pubsubPrefix()), p -> new ArrayList<>()).add(entry.tail());
                contentKeys.computeIfAbsent(ByteBuffer.wrap(entry.contentPrefix()), p -> new ArrayList<>()).add(entry.tail());
                bytes += entry.size();
            }
            byte[] first = entries.get(0).tail();
            byte[] last = entries.get(entries.size() - 1).tail();
            // messages and the time index share their keys: one range tombstone each; the SSTs of the messages
            // that the range covers entirely are then dropped by compaction without being read
            batch.deleteRange(families.messages(), first, Keys.successor(last));
            batch.deleteRange(families.byTime(), first, Keys.successor(last));
            deleteUnderPrefixes(batch, families.byPubsub(), pubsubKeys);
            deleteUnderPrefixes(batch, families.byContent(), contentKeys);
            counters.stage(batch, -entries.size(), -bytes);
            committer.commit(batch);
        }
        counters.applied(-entries.size(), -bytes);
        return bytes;
    }

    /**
     * A topic's entries of the chunk are contiguous in its index (nothing else lies between its first and last
     * tail: the chunk is a contiguous range of the time index). Many of them go with one range tombstone; a
     * few with point deletes, so that a chunk spread over thousands of content topics does not fill the
     * memtable with range tombstones, which every scan would have to consider.
     */
    private static void deleteUnderPrefixes(WriteBatch batch, ColumnFamilyHandle family, Map<ByteBuffer, List<byte[]>> keys)
            throws RocksDBException {
        for (Map.Entry<ByteBuffer, List<byte[]>> topic : keys.entrySet()) {
            byte[] prefix = topic.getKey().array();
            List<byte[]> tails = topic.getValue();
            if (tails.size() >= MIN_ENTRIES_FOR_RANGE_DELETE) {
                batch.deleteRange(family, Keys.concat(prefix, tails.get(0)),
                        Keys.successor(Keys.concat(prefix, tails.get(tails.size() - 1))));
            } else {
                for (byte[] tail : tails) {
                    batch.delete(family, Keys.concat(prefix, tail));
                }
            }
        }
    }
}
