package io.wakurelay.archive;

import com.google.protobuf.InvalidProtocolBufferException;
import io.wakurelay.protocol.MessageHash;
import io.wakurelay.protocol.proto.WakuMessage;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.Snapshot;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Runs Store v3 queries as range scans over the indexes, all reads of one query on one RocksDB snapshot so
 * that a page is consistent while the writer inserts and retention deletes.
 *
 * <p>A page is found by reading one entry more than the page size: the extra entry says whether a next page
 * exists, and the cursor is the hash of the last entry returned. Because the cursor is a position in
 * (timestamp, hash) order, the next page starts strictly after it: paging returns every matching message
 * once and in order, and messages inserted meanwhile appear only if they sort after the cursor.
 */
final class StoreReader {
    private static final Logger log = LoggerFactory.getLogger(StoreReader.class);

    /** An index entry found for a query; {@code pubsubTopic} is filled when known without another read. */
    private record Hit(byte[] tail, String pubsubTopic) {
        MessageHash hash() {
            return Keys.hashOfTail(tail);
        }
    }

    private final RocksDB db;
    private final ColumnFamilyHandle messages;
    private final ColumnFamilyHandle messageInfo;
    private final ColumnFamilyHandle byTime;
    private final ColumnFamilyHandle byPubsub;
    private final ColumnFamilyHandle byContent;

    StoreReader(ArchiveDatabase database) {
        this.db = database.db();
        this.messages = database.handle(ArchiveDatabase.Family.MESSAGES);
        this.messageInfo = database.handle(ArchiveDatabase.Family.MESSAGE_INFO);
        this.byTime = database.handle(ArchiveDatabase.Family.BY_TIME);
        this.byPubsub = database.handle(ArchiveDatabase.Family.BY_PUBSUB);
        this.byContent = database.handle(ArchiveDatabase.Family.BY_CONTENT);
    }

    StoreResponse execute(StoreQuery query) throws RocksDBException {
        Snapshot snapshot = db.getSnapshot();
        try (ReadOptions read = new ReadOptions().setSnapshot(snapshot)) {
            byte[] cursorTail = query.cursor() == null ? null : cursorTail(read, query.cursor());
            TailRange range = TailRange.of(query, cursorTail);
            int wanted = query.pageSize() + 1;
            List<Hit> hits = switch (query.kind()) {
                case HASHES -> byHashes(read, query, range, wanted);
                case TOPICS -> byTopics(snapshot, query, range, wanted);
                case TIME -> byTime(snapshot, query, range, wanted);
            };
            boolean more = hits.size() > query.pageSize();
            List<Hit> page = more ? hits.subList(0, query.pageSize()) : hits;
            MessageHash next = more ? page.get(page.size() - 1).hash() : null;
            List<StoredMessage> results = toMessages(read, page, query.includeData());
            if (!query.ascending()) {
                // nwaku returns every page in chronological order; the cursor still marks where the scan stopped
                Collections.reverse(results);
            }
            return new StoreResponse(results, next);
        } finally {
            db.releaseSnapshot(snapshot);
        }
    }

    private byte[] cursorTail(ReadOptions read, MessageHash cursor) throws RocksDBException {
        byte[] hash = cursor.toByteArray();
        byte[] info = db.get(messageInfo, read, hash);
        if (info == null) {
            throw new InvalidQueryException("cursor " + cursor.toHex() + " is not a stored message (unknown, or removed by retention)");
        }
        return Keys.tail(Keys.timestampOfInfo(info), hash);
    }

    private List<Hit> byHashes(ReadOptions read, StoreQuery query, TailRange range, int wanted) throws RocksDBException {
        List<byte[]> keys = new ArrayList<>(query.hashes().size());
        for (MessageHash hash : query.hashes()) {
            keys.add(hash.toByteArray());
        }
        List<byte[]> infos = db.multiGetAsList(read, Collections.nCopies(keys.size(), messageInfo), keys);
        List<Hit> hits = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            byte[] info = infos.get(i);
            if (info == null) {
                continue;
            }
            byte[] tail = Keys.tail(Keys.timestampOfInfo(info), keys.get(i));
            if (range.contains(tail, query.ascending())) {
                hits.add(new Hit(tail, Keys.pubsubOfInfo(info)));
            }
        }
        Comparator<Hit> order = (a, b) -> Keys.compare(a.tail(), b.tail());
        hits.sort(query.ascending() ? order : order.reversed());
        return hits.size() > wanted ? hits.subList(0, wanted) : hits;
    }

    private List<Hit> byTopics(Snapshot snapshot, StoreQuery query, TailRange range, int wanted) throws RocksDBException {
        String pubsubTopic = query.pubsubTopic();
        List<IndexScan> scans = new ArrayList<>();
        try {
            if (query.contentTopics().isEmpty()) {
                scans.add(new IndexScan(db, byPubsub, snapshot, Keys.pubsubPrefix(pubsubTopic), range, query.ascending()));
            } else {
                for (String contentTopic : query.contentTopics()) {
                    scans.add(new IndexScan(db, byContent, snapshot, Keys.contentPrefix(pubsubTopic, contentTopic),
                            range, query.ascending()));
                }
            }
            return merge(scans, query.ascending(), wanted, pubsubTopic);
        } finally {
            scans.forEach(IndexScan::close);
        }
    }

    /**
     * A k-way merge of sorted scans (one per content topic): each step takes the smallest (or, backward, the
     * largest) current tail. A message has one content topic, so the scans never return the same entry.
     */
    private static List<Hit> merge(List<IndexScan> scans, boolean ascending, int wanted, String pubsubTopic) throws RocksDBException {
        Comparator<IndexScan> order = (a, b) -> Keys.compare(a.tail(), b.tail());
        PriorityQueue<IndexScan> heads = new PriorityQueue<>(ascending ? order : order.reversed());
        for (IndexScan scan : scans) {
            if (scan.isValid()) {
                heads.add(scan);
            } else {
                scan.checkStatus();
            }
        }
        List<Hit> hits = new ArrayList<>(wanted);
        while (hits.size() < wanted && !heads.isEmpty()) {
            IndexScan scan = heads.poll();
            hits.add(new Hit(scan.tail(), pubsubTopic));
            scan.next();
            if (scan.isValid()) {
                heads.add(scan);
            } else {
                scan.checkStatus();
            }
        }
        return hits;
    }

    private List<Hit> byTime(Snapshot snapshot, StoreQuery query, TailRange range, int wanted) throws RocksDBException {
        List<Hit> hits = new ArrayList<>(wanted);
        try (IndexScan scan = new IndexScan(db, byTime, snapshot, Keys.EMPTY, range, query.ascending())) {
            for (; scan.isValid() && hits.size() < wanted; scan.next()) {
                String pubsubTopic = query.includeData() ? Keys.string(Keys.pubsubOfTimeValue(scan.value())) : null;
                hits.add(new Hit(scan.tail(), pubsubTopic));
            }
            scan.checkStatus();
        }
        return hits;
    }

    private List<StoredMessage> toMessages(ReadOptions read, List<Hit> page, boolean includeData) throws RocksDBException {
        List<StoredMessage> results = new ArrayList<>(page.size());
        if (page.isEmpty()) {
            return results; // RocksJava asserts that a multi-get has keys
        }
        if (!includeData) {
            for (Hit hit : page) {
                results.add(new StoredMessage(hit.hash(), Keys.timestampOfTail(hit.tail()), null, null));
            }
            return results;
        }
        List<byte[]> keys = new ArrayList<>(page.size());
        for (Hit hit : page) {
            keys.add(hit.tail());
        }
        List<byte[]> values = db.multiGetAsList(read, Collections.nCopies(keys.size(), messages), keys);
        for (int i = 0; i < page.size(); i++) {
            Hit hit = page.get(i);
            byte[] bytes = values.get(i);
            if (bytes == null) {
                // every index entry is written in the same batch as its message: this is corruption
                log.error("index entry {} has no stored message; skipped", hit.hash());
                continue;
            }
            results.add(new StoredMessage(hit.hash(), Keys.timestampOfTail(hit.tail()), hit.pubsubTopic(), parse(hit, bytes)));
        }
        return results;
    }

    private static WakuMessage parse(Hit hit, byte[] bytes) {
        try {
            return WakuMessage.parseFrom(bytes);
        } catch (InvalidProtocolBufferException e) {
            throw new ArchiveStorageException("stored message " + hit.hash() + " does not parse as a WakuMessage", e);
        }
    }
}
