package io.wakurelay.archive.rocksdb;

import io.wakurelay.archive.ArchiveClosedException;
import io.wakurelay.archive.RocksConfig;
import io.wakurelay.archive.ArchiveStorageException;
import io.wakurelay.archive.Durability;
import org.rocksdb.AbstractNativeReference;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.InfoLogLevel;
import org.rocksdb.LRUCache;
import org.rocksdb.RateLimiter;
import org.rocksdb.RateLimiterMode;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.Snapshot;
import org.rocksdb.Statistics;
import org.rocksdb.UInt64AddOperator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteBufferManager;
import org.rocksdb.WriteOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The RocksDB instance, its column families and every native object they need, opened with memory bounded by
 * {@link RocksConfig} and closed in dependency order. Readers enter through {@link #guarded}, so that
 * {@link #close()} never frees native memory under a running query or gauge.
 */
final class ArchiveDatabase implements AutoCloseable {
    /** The column families (docs/archive.md, "Schema"). */
    enum Family {
        DEFAULT("default"),
        COUNTERS("counters"),
        MESSAGES("messages"),
        MESSAGE_INFO("message_info"),
        BY_TIME("by_time"),
        BY_PUBSUB("by_pubsub_topic"),
        BY_CONTENT("by_content_topic");

        final String cfName;

        Family(String cfName) {
            this.cfName = cfName;
        }
    }

    static final byte[] SCHEMA_KEY = "wakurelay.archive.schema".getBytes(StandardCharsets.UTF_8);
    /** 2: messages keyed by (timestamp, hash) in plain SSTs instead of by hash in blob files. */
    static final byte[] SCHEMA_VERSION = "2".getBytes(StandardCharsets.UTF_8);
    private static final long SMALL_FAMILY_WRITE_BUFFER = 4L << 20;
    private static final int MAX_OPEN_FILES = 1024;
    /** RocksDB's default number of levels, which the families keep. */
    private static final int NUM_LEVELS = 7;
    private static final int MAX_RANGE_DELETIONS_PER_MEMTABLE = 1000;
    private static final Logger log = LoggerFactory.getLogger(ArchiveDatabase.class);

    static {
        RocksDB.loadLibrary();
    }

    private final RocksConfig config;
    private final List<AbstractNativeReference> options = new ArrayList<>();
    private final Map<Family, ColumnFamilyHandle> handles = new EnumMap<>(Family.class);
    private final LRUCache blockCache;
    private final Statistics statistics;
    private final WriteOptions writeOptions;
    private final RocksDB db;
    private final ReadSnapshots snapshots;
    private final ReentrantReadWriteLock lifecycle = new ReentrantReadWriteLock();
    private volatile boolean closed;
    private final boolean directIo;

    private ArchiveDatabase(RocksConfig config) throws RocksDBException, IOException {
        this.config = config;
        Files.createDirectories(config.dataDir());
        boolean fresh = !Files.exists(config.dataDir().resolve("CURRENT"));
        directIo = config.directIo() && DirectIoProbe.supported(config.dataDir());
        log.atInfo().addKeyValue("file", String.valueOf(config.dataDir())).addKeyValue("io", directIo ? "with direct I/O"
                : config.directIo() ? "through the page cache (the file system refuses direct I/O)"
                : "through the page cache (--store-direct-io=false)").log("archive: how flushes and compactions write");

        blockCache = own(new LRUCache(config.blockCacheBytes()));
        // Memtables are charged to the block cache, and above the budget the manager makes RocksDB flush the largest.
        // It does not stall writes (allow_stall false): a write stalled there waits only for memory a flush frees, so
        // when the flush fails (a full disk) the write waits for good, and RocksDB's recovery, which must get past the
        // waiting writer, never runs (DiskFullRecoveryTest, ADR 0016). Writes stall instead on RocksDB's own limit of two
        // memtables per family, a stall that gives up on a background error: memory stays within twice the families'
        // write buffers (RocksConfig.writeBufferBytes).
        WriteBufferManager writeBuffers = own(new WriteBufferManager(config.writeBufferBytes(), blockCache, false));
        statistics = own(new Statistics());
        DBOptions dbOptions = own(new DBOptions()
                .setStatistics(statistics)
                .setCreateIfMissing(true)
                .setCreateMissingColumnFamilies(true)
                .setWriteBufferManager(writeBuffers)
                .setMaxBackgroundJobs(2)
                // without a WAL (Durability.FLUSH) a flush must write every family's memtable at once, so that recovery
                // never finds a message without its index entries and counters; a flush-acknowledged batch relies on it
                .setAtomicFlush(config.durability() == Durability.FLUSH)
                .setMaxOpenFiles(MAX_OPEN_FILES)
                // the counters family gets a few bytes per batch and would otherwise keep old WAL files alive
                .setMaxTotalWalSize(4 * config.writeBufferBytes())
                .setBytesPerSync(1L << 20)
                .setUseDirectIoForFlushAndCompaction(directIo)
                .setInfoLogLevel(InfoLogLevel.INFO_LEVEL)
                .setMaxLogFileSize(8L << 20)
                .setKeepLogFileNum(3));
        if (config.writeRateBytes() > 0) {
            // RocksDB's own limiter on what flushes and compactions write (refilled every 100 ms, flushes first); the
            // write-ahead log is not limited, so when flushes fall behind it is the memtable stall that slows writes
            dbOptions.setRateLimiter(own(new RateLimiter(config.writeRateBytes(), 100_000, 10, RateLimiterMode.WRITES_ONLY, false)));
        }
        BloomFilter bloom = own(new BloomFilter(10));
        UInt64AddOperator add = own(new UInt64AddOperator());

        List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
        for (Family family : Family.values()) {
            descriptors.add(new ColumnFamilyDescriptor(family.cfName.getBytes(StandardCharsets.UTF_8),
                    own(familyOptions(family, bloom, add))));
        }
        List<ColumnFamilyHandle> opened = new ArrayList<>();
        try {
            db = RocksDB.open(dbOptions, config.dataDir().toString(), descriptors, opened);
        } catch (RocksDBException e) {
            closeOptions();
            throw e;
        }
        for (int i = 0; i < descriptors.size(); i++) {
            handles.put(Family.values()[i], opened.get(i));
        }
        writeOptions = own(new WriteOptions()
                .setSync(config.durability() == Durability.WAL_SYNC)
                .setDisableWAL(config.durability() == Durability.FLUSH));
        checkSchema(fresh);
        snapshots = new ReadSnapshots(db, config.durability() == Durability.FLUSH);
    }

    /** Whether flushes and compactions write with direct I/O ({@link DirectIoProbe}). */
    boolean directIo() {
        return directIo;
    }

    /** @throws ArchiveStorageException when the directory cannot be opened as an archive */
    static ArchiveDatabase open(RocksConfig config) {
        try {
            return new ArchiveDatabase(config);
        } catch (RocksDBException e) {
            throw new ArchiveStorageException("cannot open the archive in " + config.dataDir() + ": " + RocksErrors.describe(e), e);
        } catch (IOException e) {
            throw new ArchiveStorageException("cannot create the archive directory " + config.dataDir() + ": " + e.getMessage(), e);
        }
    }

    private ColumnFamilyOptions familyOptions(Family family, BloomFilter bloom, UInt64AddOperator add) {
        BlockBasedTableConfig table = new BlockBasedTableConfig()
                .setBlockCache(blockCache)
                .setCacheIndexAndFilterBlocks(true)
                .setPinL0FilterAndIndexBlocksInCache(true);
        ColumnFamilyOptions cf = withoutSeqnoRewrites()
                .setCompressionType(compression(family))
                .setBottommostCompressionType(compression(family))
                .setLevelCompactionDynamicLevelBytes(true);
        switch (family) {
            case MESSAGES -> {
                // Keyed by (timestamp, hash): messages arrive in time order, so each flush writes SSTs whose key
                // ranges follow those already stored and compaction moves them down without rewriting them, and
                // retention drops whole files. That gives what blob files would (large values written once) without
                // their flush cost, which on RocksJava's portable build includes a software CRC32C of every byte
                // (ADR 0013). Payloads are not compressed (see compression). Lookups
                // come with their exact key, so no bloom filter is needed.
                cf.setWriteBufferSize(config.writeBufferBytes() / 2);
            }
            case MESSAGE_INFO -> {
                // the dedup probe of every insert is a point lookup that usually misses
                table.setFilterPolicy(bloom);
                cf.setWriteBufferSize(config.writeBufferBytes() / 8);
            }
            // retention's range tombstones: flush a memtable that collected many, so scans stay cheap
            case BY_TIME, BY_PUBSUB, BY_CONTENT -> cf.setWriteBufferSize(config.writeBufferBytes() / 8)
                    .setMemtableMaxRangeDeletions(MAX_RANGE_DELETIONS_PER_MEMTABLE);
            case COUNTERS -> cf.setMergeOperator(add).setWriteBufferSize(Math.min(SMALL_FAMILY_WRITE_BUFFER, config.writeBufferBytes() / 8));
            case DEFAULT -> cf.setWriteBufferSize(Math.min(SMALL_FAMILY_WRITE_BUFFER, config.writeBufferBytes() / 8));
        }
        cf.setTableFormatConfig(table);
        return cf;
    }

    /** How a family's SST files are compressed, at every level (so a merge of small files writes the same). */
    CompressionType compression(Family family) {
        // payloads are mostly encrypted: compressing them costs CPU and saves nothing
        return family == Family.MESSAGES ? CompressionType.NO_COMPRESSION : CompressionType.LZ4_COMPRESSION;
    }

    /**
     * Column family options in which RocksDB never rewrites a file only to zero its keys' sequence numbers. It does
     * that to every file of the last level once no snapshot is older than the file (a "BottommostFiles" compaction,
     * checked whenever a snapshot is released): every Store query releases one, and with {@link Durability#FLUSH} the
     * flusher releases one per flush. Messages are keyed by time, so each new file is in the last level: every
     * message would be written twice (1.4 GB of such rewrites for 2 GB stored in a micro run, ADR 0016). Zeroed
     * sequence numbers only help compression, and message payloads are not compressed. RocksJava has no setter for
     * {@code bottommost_file_compaction_delay}, so it is set through RocksDB's option parser.
     */
    private static ColumnFamilyOptions withoutSeqnoRewrites() {
        Properties props = new Properties();
        props.setProperty("bottommost_file_compaction_delay", String.valueOf(Integer.MAX_VALUE));
        ColumnFamilyOptions options = ColumnFamilyOptions.getColumnFamilyOptionsFromProps(props);
        if (options == null) {
            throw new IllegalStateException("RocksDB did not take bottommost_file_compaction_delay");
        }
        return options;
    }

    private void checkSchema(boolean fresh) throws RocksDBException {
        ColumnFamilyHandle defaultFamily = handles.get(Family.DEFAULT);
        byte[] version = db.get(defaultFamily, SCHEMA_KEY);
        if (version == null && fresh) {
            // through a synced WAL whatever the durability: without one, a kill before the first flush would leave a
            // directory that the next start refuses as "not an archive"
            try (WriteOptions synced = new WriteOptions().setSync(true)) {
                db.put(defaultFamily, synced, SCHEMA_KEY, SCHEMA_VERSION);
            }
        } else if (!Arrays.equals(version, SCHEMA_VERSION)) {
            String found = version == null ? "no schema marker" : "schema " + new String(version, StandardCharsets.UTF_8);
            closeNatives();
            throw new RocksDBException(config.dataDir() + " is not a wakurelay archive of schema "
                    + new String(SCHEMA_VERSION, StandardCharsets.UTF_8) + " (found " + found + ")");
        }
    }

    RocksDB db() {
        return db;
    }

    /** RocksDB's own tickers (write stalls, compaction bytes), for metrics and tests. */
    Statistics statistics() {
        return statistics;
    }

    ColumnFamilyHandle handle(Family family) {
        return handles.get(family);
    }

    RocksConfig config() {
        return config;
    }

    /** Commits one batch as the durability says: into the WAL (synced or not), or into the memtables only. */
    void write(WriteBatch batch) throws RocksDBException {
        db.write(writeOptions, batch);
    }

    /** RocksDB's sequence number of the last write: every write made so far has one no larger. */
    long latestSequence() {
        return db.getLatestSequenceNumber();
    }

    /**
     * Flushes every memtable and waits until the SST files are written and synced: every write that returned
     * before this call survives a crash and a power loss once it returns. With {@link Durability#FLUSH} the families
     * are flushed together (atomic flush), and what the flush made durable becomes what queries read.
     *
     * @return the sequence number up to which every write is now durable
     * @throws ArchiveClosedException when the database is closed (it waits for a flush that runs, never under it)
     */
    long flush() throws RocksDBException {
        return guarded(() -> {
            // taken before the flush: every write it shows is in the memtables the flush is about to write
            Snapshot point = db.getSnapshot();
            try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
                db.flush(flush, new ArrayList<>(handles.values()));
            } catch (RocksDBException | RuntimeException e) {
                db.releaseSnapshot(point);
                throw e;
            }
            long durable = point.getSequenceNumber();
            if (config.durability() == Durability.FLUSH) {
                snapshots.publish(point);
            } else {
                db.releaseSnapshot(point);
            }
            return durable;
        });
    }

    /** The snapshots queries read at (see {@link ReadSnapshots}: with {@link Durability#FLUSH}, what is durable). */
    ReadSnapshots snapshots() {
        return snapshots;
    }

    interface DbCall<T> {
        T call() throws RocksDBException;
    }

    /**
     * Runs a read while the database cannot be closed.
     *
     * @throws ArchiveClosedException when it already is
     */
    <T> T guarded(DbCall<T> call) throws RocksDBException {
        ReentrantReadWriteLock.ReadLock lock = lifecycle.readLock();
        lock.lock();
        try {
            if (closed) {
                throw new ArchiveClosedException("the archive in " + config.dataDir() + " is closed");
            }
            return call.call();
        } finally {
            lock.unlock();
        }
    }

    /** A RocksDB integer property summed over every column family; NaN once closed. */
    double aggregatedProperty(String name) {
        return propertyOrNaN(() -> db.getAggregatedLongProperty(name));
    }

    double familyProperty(Family family, String name) {
        return propertyOrNaN(() -> db.getLongProperty(handles.get(family), name));
    }

    /** SST files of every family and level; NaN once closed. */
    double sstFileCount() {
        return propertyOrNaN(() -> {
            long files = 0;
            // a string property, which RocksDB does not sum over families
            for (ColumnFamilyHandle family : handles.values()) {
                for (int level = 0; level < NUM_LEVELS; level++) {
                    files += Long.parseLong(db.getProperty(family, "rocksdb.num-files-at-level" + level));
                }
            }
            return files;
        });
    }

    double blockCacheUsage() {
        return propertyOrNaN(blockCache::getUsage);
    }

    /** Time writes spent stalled by RocksDB (memtables or L0 files waiting for flush or compaction). */
    double stallSeconds() {
        return propertyOrNaN(() -> statistics.getTickerCount(org.rocksdb.TickerType.STALL_MICROS)) / 1e6;
    }

    private double propertyOrNaN(DbCall<Long> read) {
        try {
            return guarded(read);
        } catch (ArchiveClosedException | RocksDBException e) {
            return Double.NaN;
        }
    }

    boolean isClosed() {
        return closed;
    }

    /** Every native object this class created (tests check that close released them all). */
    List<AbstractNativeReference> nativeObjects() {
        List<AbstractNativeReference> all = new ArrayList<>(options);
        all.addAll(handles.values());
        all.add(db);
        return all;
    }

    /** Waits for running readers, then closes the handles, the database, and the options, cache and filters it used. */
    @Override
    public void close() {
        ReentrantReadWriteLock.WriteLock lock = lifecycle.writeLock();
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            closeNatives();
        } finally {
            lock.unlock();
        }
    }

    private void closeNatives() {
        closed = true;
        if (snapshots != null) {
            snapshots.close();
        }
        for (ColumnFamilyHandle handle : handles.values()) {
            handle.close();
        }
        if (db != null) {
            db.close();
        }
        closeOptions();
    }

    private void closeOptions() {
        for (int i = options.size() - 1; i >= 0; i--) {
            options.get(i).close();
        }
    }

    private <T extends AbstractNativeReference> T own(T nativeObject) {
        options.add(nativeObject);
        return nativeObject;
    }
}
