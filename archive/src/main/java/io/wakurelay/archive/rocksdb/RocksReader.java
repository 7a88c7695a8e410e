package io.wakurelay.archive.rocksdb;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.UnsafeByteOperations;
import io.wakurelay.archive.ArchiveClosedException;
import io.wakurelay.archive.ArchiveStorageException;
import io.wakurelay.archive.UnknownCursorException;
import io.wakurelay.archive.StoreQuery;
import io.wakurelay.archive.StoredMessage;
import io.wakurelay.archive.common.OpenPages;
import io.wakurelay.archive.common.PageCut;
import io.wakurelay.protocol.MessageHash;
import io.wakurelay.protocol.proto.WakuMessage;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Snapshot;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.function.LongConsumer;

/**
 * Runs Store v3 queries as range scans over the indexes, all reads of one query on one RocksDB snapshot so
 * that a page is consistent while the writer inserts and retention deletes.
 *
 * <p>A page is found by reading one entry more than the page size: the extra entry says whether a next page
 * exists, and the cursor is the hash of the last entry returned. Because the cursor is a position in
 * (timestamp, hash) order, the next page starts strictly after it: paging returns every matching message
 * once and in order, and messages inserted meanwhile appear only if they sort after the cursor.
 *
 * <p>A page is opened ({@link #open}) and its messages are then read one by one as it is iterated
 * ({@link RocksPage}), under the snapshot it was opened with. With data, the page also ends when its next message
 * would take the stored bytes past the page's byte budget; the sizes are known before any message is read (a read
 * of the value's length only), so that the page's extent and cursor are fixed when it opens, also for backward
 * pages, whose messages are returned oldest first.
 */
final class RocksReader implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(RocksReader.class);
    /** Asking RocksDB for a value into an empty array returns the value's length and copies nothing. */
    private static final byte[] LENGTH_ONLY = new byte[0];

    /** An index entry found for a query; {@code pubsubTopic} is filled when known without another read. */
    record Hit(byte[] tail, String pubsubTopic) {
        MessageHash hash() {
            return Keys.hashOfTail(tail);
        }
    }

    private final ArchiveDatabase database;
    private final RocksDB db;
    private final MessageFamilies families;

    private final OpenPages pages = new OpenPages();

    RocksReader(ArchiveDatabase database) {
        this.database = database;
        this.db = database.db();
        this.families = MessageFamilies.of(database);
    }

    /**
     * Opens a page: finds its index entries, and with data fixes where the byte budget ends it (the first message
     * is always in, whatever its size); reads no message yet.
     *
     * @throws ArchiveClosedException when the archive is closed
     */
    RocksPage open(StoreQuery query, long maxPageBytes, LongConsumer busyNanos) throws RocksDBException {
        long start = System.nanoTime();
        return database.guarded(() -> {
            Snapshot snapshot = database.snapshots().acquire();
            ReadOptions read = new ReadOptions().setSnapshot(snapshot);
            RocksPage opened;
            try {
                byte[] cursorTail = query.cursor() == null ? null : cursorTail(read, query.cursor());
                TailRange range = TailRange.of(query, cursorTail);
                int wanted = query.pageSize() + 1;
                List<Hit> hits = switch (query.kind()) {
                    case HASHES -> byHashes(read, query, range, wanted);
                    case TOPICS -> byTopics(snapshot, query, range, wanted);
                    case TIME -> byTime(snapshot, query, range, wanted);
                };
                PageCut<Hit> cut = PageCut.of(hits, query, maxPageBytes, Hit::hash, hit -> size(read, hit));
                opened = new RocksPage(this, snapshot, read, cut, query.includeData(), System.nanoTime() - start, busyNanos);
            } catch (RocksDBException | RuntimeException e) {
                read.close();
                database.snapshots().release(snapshot);
                throw e;
            }
            pages.add(opened); // when the archive is closing, the page is closed and this throws
            return opened;
        });
    }

    /** The stored size of a hit's message, read without its bytes. */
    private long size(ReadOptions read, Hit hit) throws RocksDBException {
        int size = db.get(families.messages(), read, hit.tail(), LENGTH_ONLY);
        if (size == RocksDB.NOT_FOUND) {
            // every index entry is written in the same batch as its message: this is corruption
            log.atError().addKeyValue("hash", String.valueOf(hit.hash())).log("an index entry has no stored message; skipped");
            return PageCut.MISSING;
        }
        return size;
    }

    /** One message of a page, read under the page's snapshot. */
    StoredMessage read(ReadOptions read, Hit hit, boolean includeData) throws RocksDBException {
        long timestamp = Keys.timestampOfTail(hit.tail());
        if (!includeData) {
            return new StoredMessage(hit.hash(), timestamp, null, null);
        }
        byte[] bytes = database.guarded(() -> db.get(families.messages(), read, hit.tail()));
        if (bytes == null) {
            // the page's snapshot had it when the page opened
            throw new ArchiveStorageException("stored message " + hit.hash() + " vanished from the page's snapshot", null);
        }
        return new StoredMessage(hit.hash(), timestamp, hit.pubsubTopic(), parse(hit, bytes));
    }

    /** Called by {@link RocksPage#close()}: gives the snapshot back while the database is still open. */
    void release(RocksPage page, Snapshot snapshot, ReadOptions read) {
        pages.forget(page);
        read.close();
        database.snapshots().release(snapshot);
    }

    /** Closes every open page (before the database closes: a snapshot must not outlive it); no page opens after. */
    @Override
    public void close() {
        pages.closeAll();
    }

    private byte[] cursorTail(ReadOptions read, MessageHash cursor) throws RocksDBException {
        byte[] hash = cursor.toByteArray();
        byte[] info = db.get(families.messageInfo(), read, hash);
        if (info == null) {
            throw new UnknownCursorException(cursor);
        }
        return Keys.tail(Keys.timestampOfInfo(info), hash);
    }

    private List<Hit> byHashes(ReadOptions read, StoreQuery query, TailRange range, int wanted) throws RocksDBException {
        List<byte[]> keys = new ArrayList<>(query.hashes().size());
        for (MessageHash hash : query.hashes()) {
            keys.add(hash.toByteArray());
        }
        List<byte[]> infos = db.multiGetAsList(read, Collections.nCopies(keys.size(), families.messageInfo()), keys);
        List<Hit> hits = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            byte[] info = infos.get(i);
            if (info == null) {
                continue;
            }
            byte[] tail = Keys.tail(Keys.timestampOfInfo(info), keys.get(i));
            String pubsubTopic = Keys.pubsubOfInfo(info);
            if (range.contains(tail, query.ascending()) && (query.pubsubTopic() == null || query.pubsubTopic().equals(pubsubTopic))
                    && hasContentTopic(read, tail, query.contentTopics())) {
                hits.add(new Hit(tail, pubsubTopic));
            }
        }
        Comparator<Hit> order = (a, b) -> Keys.compare(a.tail(), b.tail());
        hits.sort(query.ascending() ? order : order.reversed());
        return hits.size() > wanted ? hits.subList(0, wanted) : hits;
    }

    /** Topics given with hashes narrow them (as nwaku's drivers); a message's content topic is in its by_time entry. */
    private boolean hasContentTopic(ReadOptions read, byte[] tail, List<String> contentTopics) throws RocksDBException {
        if (contentTopics.isEmpty()) {
            return true;
        }
        byte[] value = db.get(families.byTime(), read, tail);
        if (value == null) {
            return false; // the snapshot that holds its message_info holds this too: missing is corruption, no match
        }
        String contentTopic = Keys.string(Keys.contentOfTimeValue(value));
        return contentTopics.contains(contentTopic);
    }

    private List<Hit> byTopics(Snapshot snapshot, StoreQuery query, TailRange range, int wanted) throws RocksDBException {
        List<String> pubsubTopics = query.pubsubTopic() != null ? List.of(query.pubsubTopic()) : storedPubsubTopics(snapshot);
        List<IndexScan> scans = new ArrayList<>();
        List<String> scanTopics = new ArrayList<>();
        try {
            for (String pubsubTopic : pubsubTopics) {
                if (query.contentTopics().isEmpty()) {
                    scans.add(new IndexScan(db, families.byPubsub(), snapshot, Keys.pubsubPrefix(pubsubTopic), range, query.ascending()));
                    scanTopics.add(pubsubTopic);
                    continue;
                }
                for (String contentTopic : query.contentTopics()) {
                    scans.add(new IndexScan(db, families.byContent(), snapshot, Keys.contentPrefix(pubsubTopic, contentTopic),
                            range, query.ascending()));
                    scanTopics.add(pubsubTopic);
                }
            }
            return merge(scans, scanTopics, query.ascending(), wanted);
        } finally {
            scans.forEach(IndexScan::close);
        }
    }

    /**
     * The pubsub topics the archive holds messages of, for content topics queried without one: one seek per topic in
     * by_pubsub_topic (keys {@code topic NUL tail}; the next topic's keys start at or after {@code topic 0x01}, since
     * no pubsub topic holds a control character), so a few shards cost a few seeks whatever their sizes.
     */
    private List<String> storedPubsubTopics(Snapshot snapshot) throws RocksDBException {
        List<String> topics = new ArrayList<>();
        try (ReadOptions read = new ReadOptions().setSnapshot(snapshot);
             RocksIterator it = db.newIterator(families.byPubsub(), read)) {
            for (it.seekToFirst(); it.isValid(); ) {
                byte[] key = it.key();
                int separator = 0;
                while (separator < key.length && key[separator] != 0) {
                    separator++;
                }
                byte[] topic = Arrays.copyOf(key, separator);
                topics.add(Keys.string(topic));
                byte[] next = Arrays.copyOf(topic, topic.length + 1);
                next[topic.length] = 1;
                it.seek(next);
            }
            it.status();
        }
        return topics;
    }

    /**
     * A k-way merge of sorted scans (one per pubsub and content topic): each step takes the smallest (or, backward,
     * the largest) current tail. A message has one pubsub and one content topic, so the scans never return the same entry.
     *
     * @param scanTopics the pubsub topic of each scan
     */
    private static List<Hit> merge(List<IndexScan> scans, List<String> scanTopics, boolean ascending, int wanted)
            throws RocksDBException {
        Comparator<Integer> order = (a, b) -> Keys.compare(scans.get(a).tail(), scans.get(b).tail());
        PriorityQueue<Integer> heads = new PriorityQueue<>(ascending ? order : order.reversed());
        for (int i = 0; i < scans.size(); i++) {
            if (scans.get(i).isValid()) {
                heads.add(i);
            } else {
                scans.get(i).checkStatus();
            }
        }
        List<Hit> hits = new ArrayList<>(wanted);
        while (hits.size() < wanted && !heads.isEmpty()) {
            int i = heads.poll();
            IndexScan scan = scans.get(i);
            hits.add(new Hit(scan.tail(), scanTopics.get(i)));
            scan.next();
            if (scan.isValid()) {
                heads.add(i);
            } else {
                scan.checkStatus();
            }
        }
        return hits;
    }

    private List<Hit> byTime(Snapshot snapshot, StoreQuery query, TailRange range, int wanted) throws RocksDBException {
        List<Hit> hits = new ArrayList<>(wanted);
        try (IndexScan scan = new IndexScan(db, families.byTime(), snapshot, Keys.EMPTY, range, query.ascending())) {
            for (; scan.isValid() && hits.size() < wanted; scan.next()) {
                String pubsubTopic = query.includeData() ? Keys.string(Keys.pubsubOfTimeValue(scan.value())) : null;
                hits.add(new Hit(scan.tail(), pubsubTopic));
            }
            scan.checkStatus();
        }
        return hits;
    }

    private static WakuMessage parse(Hit hit, byte[] bytes) {
        try {
            // the array is this read's own: the message's bytes fields (the payload) alias it instead of copying it
            CodedInputStream in = UnsafeByteOperations.unsafeWrap(bytes).newCodedInput();
            in.enableAliasing(true);
            return WakuMessage.parser().parseFrom(in);
        } catch (InvalidProtocolBufferException e) {
            throw new ArchiveStorageException("stored message " + hit.hash() + " does not parse as a WakuMessage", e);
        }
    }
}
