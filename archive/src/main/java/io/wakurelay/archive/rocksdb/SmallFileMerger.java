package io.wakurelay.archive.rocksdb;

import io.wakurelay.archive.ArchiveClosedException;
import io.wakurelay.archive.ArchiveStorageException;
import io.wakurelay.archive.Durability;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyMetaData;
import org.rocksdb.CompactionOptions;
import org.rocksdb.LevelMetaData;
import org.rocksdb.RocksDBException;
import org.rocksdb.SstFileMetaData;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Merges the small SST files that RocksDB's level compaction would keep for good.
 *
 * <p>Why: keys of the messages and of the three time indexes grow with time, so a flushed file never overlaps the files
 * already stored, and level compaction moves it down to the last level whole ("trivial move") instead of merging it.
 * A file therefore keeps the size it was flushed with. That is a memtable's worth with {@link Durability#WAL}, but with
 * {@link Durability#FLUSH} each acknowledgement flush writes one file per family, however little it holds: at 100
 * messages/s that was 1,166 files after a minute, and the soak reached RocksDB's 1,024 open files (ADR 0016). RocksDB
 * has no option to refuse trivial moves in level compaction, so this class asks for the merge itself, with
 * {@code CompactFiles}, on its own thread so that neither the writer nor the flusher waits for it. {@link SmallFileRuns}
 * decides which files; a merge rewrites only files under {@link #SMALL_FILE_BYTES}, so at high rates, when flushes
 * write large files, it costs nothing.
 *
 * <p>A merge is a RocksDB compaction: readers and snapshots see the same keys before and after it, and a crash in the
 * middle leaves the input files in place. A failed merge (a full disk, files another compaction took first) is counted
 * and tried again at the next check.
 */
final class SmallFileMerger implements AutoCloseable {
    /**
     * Files under this size are merged: a quarter of RocksDB's default target file size (64 MiB), and half the size of
     * the files a full memtable of {@code messages} makes with the default write buffer.
     */
    static final long SMALL_FILE_BYTES = 16L << 20;
    /** A merge waits for this many neighbouring small files. */
    static final int MIN_FILES = 4;
    /** A merge writes at most one file of RocksDB's default target size. */
    static final long MAX_OUTPUT_BYTES = 64L << 20;
    static final Duration CHECK_INTERVAL = Duration.ofSeconds(2);
    private static final Logger log = LoggerFactory.getLogger(SmallFileMerger.class);

    private final ArchiveDatabase database;
    private final SmallFileRuns runs;
    private final RocksMetrics metrics;
    private final Scheduler thread = Schedulers.newSingle(task -> {
        Thread merger = new Thread(task, "waku-archive-merger");
        merger.setDaemon(true);
        return merger;
    });
    private volatile boolean closed;

    SmallFileMerger(ArchiveDatabase database, SmallFileRuns runs, RocksMetrics metrics) {
        this.database = database;
        this.runs = runs;
        this.metrics = metrics;
    }

    static SmallFileMerger withDefaults(ArchiveDatabase database, RocksMetrics metrics) {
        return new SmallFileMerger(database, new SmallFileRuns(SMALL_FILE_BYTES, MIN_FILES, MAX_OUTPUT_BYTES), metrics);
    }

    /** Checks every {@code interval} on the merger thread. */
    Disposable schedule(Duration interval) {
        return thread.schedulePeriodically(this::mergeQuietly, interval.toNanos(), interval.toNanos(), TimeUnit.NANOSECONDS);
    }

    private void mergeQuietly() {
        try {
            mergeOnce();
        } catch (ArchiveClosedException closing) {
            // the archive closes: nothing more to merge
        } catch (RuntimeException e) {
            log.atWarn().addKeyValue("reason", e.toString()).addKeyValue("retryIn", String.valueOf(CHECK_INTERVAL))
                    .log("merging small SST files failed; trying again");
        }
    }

    /**
     * Merges, in every column family and level below 0, the groups of small files {@link SmallFileRuns} picks (tests
     * call it directly; the schedule calls it on the merger thread).
     *
     * @return the number of merges made
     */
    int mergeOnce() {
        int merges = 0;
        for (ArchiveDatabase.Family family : ArchiveDatabase.Family.values()) {
            if (closed) {
                break;
            }
            merges += mergeFamily(family);
        }
        return merges;
    }

    private int mergeFamily(ArchiveDatabase.Family family) {
        ColumnFamilyHandle handle = database.handle(family);
        ColumnFamilyMetaData metaData = call(() -> database.db().getColumnFamilyMetaData(handle));
        if (metaData == null) {
            return 0;
        }
        int merges = 0;
        for (LevelMetaData level : metaData.levels()) {
            // level 0 files may overlap and RocksDB moves them to the base level itself
            if (level.level() == 0) {
                continue;
            }
            for (List<SmallFileRuns.SstFile> group : runs.pick(describe(level))) {
                if (merge(family, handle, level.level(), group)) {
                    merges++;
                }
            }
        }
        return merges;
    }

    private boolean merge(ArchiveDatabase.Family family, ColumnFamilyHandle handle, int level, List<SmallFileRuns.SstFile> group) {
        List<String> names = group.stream().map(SmallFileRuns.SstFile::name).toList();
        try (CompactionOptions options = new CompactionOptions()
                .setCompression(database.compression(family))
                .setOutputFileSizeLimit(MAX_OUTPUT_BYTES)) {
            database.guarded(() -> database.db().compactFiles(options, handle, names, level, 0, null));
            metrics.smallFileMerges.increment();
            metrics.smallFilesMerged.increment(group.size());
            return true;
        } catch (RocksDBException e) {
            // a file another compaction took meanwhile, or a background error (full disk): the next check tries again
            metrics.smallFileMergeFailures.increment();
            log.atDebug().addKeyValue("files", names.size()).addKeyValue("columnFamily", String.valueOf(family.cfName))
                    .addKeyValue("sstLevel", level).addKeyValue("reason", RocksErrors.describe(e)).log("merging SST files failed");
            return false;
        }
    }

    private static List<SmallFileRuns.SstFile> describe(LevelMetaData level) {
        List<SmallFileRuns.SstFile> files = new ArrayList<>(level.files().size());
        for (SstFileMetaData file : level.files()) {
            files.add(new SmallFileRuns.SstFile(file.fileName(), file.size(), file.beingCompacted(), file.smallestKey()));
        }
        return files;
    }

    private <T> T call(ArchiveDatabase.DbCall<T> read) {
        try {
            return database.guarded(read);
        } catch (RocksDBException e) {
            throw new ArchiveStorageException("cannot read the archive's file list: " + RocksErrors.describe(e), e);
        }
    }

    /**
     * Stops the checks. A merge that runs holds the database open until it ends ({@link ArchiveDatabase#guarded}), so
     * closing the database after this waits for it.
     */
    @Override
    public void close() {
        closed = true;
        thread.dispose();
    }
}
