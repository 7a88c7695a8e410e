package io.wakurelay.relay;

import io.netty.buffer.ByteBuf;
import io.wakurelay.p2p.crypto.PeerId;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * gossipsub's message cache: the messages of the last {@code historyLength} heartbeats, to answer IWANT, and the ids
 * of the last {@code historyGossip} heartbeats, to advertise in IHAVE. Each entry holds a reference to the RPC that
 * forwards the message (the bytes as received, never copied), so it is bounded in bytes too: past
 * {@code maxBytes} the oldest messages leave early, counted in {@link #evictedEarly()}. Not thread-safe: the
 * router calls it under its lock.
 */
final class MessageCache {
    private final int historyLength;
    private final int historyGossip;
    private final long maxBytes;
    private final Map<MessageId, Entry> entries = new HashMap<>();
    private final ArrayDeque<ArrayDeque<Entry>> windows = new ArrayDeque<>();
    private long bytes;
    private long evictedEarly;

    /**
     * A cached message: its topic, the forwarding RPC, and how often each peer asked for it, in two small arrays
     * (8 bytes a peer, no object each): a peer may ask for every message of the cache, and so may each peer.
     */
    static final class Entry {
        final MessageId id;
        final String topic;
        final ByteBuf rpc;
        private PeerId[] askers;
        private int[] asks;
        private int askerCount;
        private boolean removed;

        Entry(MessageId id, String topic, ByteBuf rpc) {
            this.id = id;
            this.topic = topic;
            this.rpc = rpc;
        }

        /** Counts a request of {@code peer}; returns how many times it asked, this one included. */
        int requestedBy(PeerId peer) {
            for (int i = 0; i < askerCount; i++) {
                if (askers[i].equals(peer)) {
                    return ++asks[i];
                }
            }
            if (askers == null) {
                askers = new PeerId[2];
                asks = new int[2];
            } else if (askerCount == askers.length) {
                askers = Arrays.copyOf(askers, 2 * askerCount);
                asks = Arrays.copyOf(asks, 2 * askerCount);
            }
            askers[askerCount] = peer;
            asks[askerCount++] = 1;
            return 1;
        }
    }

    MessageCache(int historyLength, int historyGossip, long maxBytes) {
        this.historyLength = historyLength;
        this.historyGossip = historyGossip;
        this.maxBytes = maxBytes;
        windows.addFirst(new ArrayDeque<>());
    }

    /** Keeps {@code rpc} (the cache takes the caller's reference) for IWANT; false if the id is already cached. */
    boolean put(MessageId id, String topic, ByteBuf rpc) {
        if (entries.containsKey(id)) {
            rpc.release();
            return false;
        }
        Entry e = new Entry(id, topic, rpc);
        entries.put(id, e);
        windows.peekFirst().add(e);
        bytes += rpc.readableBytes();
        while (bytes > maxBytes && evictOldest()) {
            evictedEarly++;
        }
        return true;
    }

    Entry get(MessageId id) {
        return entries.get(id);
    }

    /** The ids of {@code topic} from the last {@code historyGossip} heartbeats, newest first. */
    List<MessageId> gossipIds(String topic) {
        List<MessageId> ids = new ArrayList<>();
        int w = 0;
        for (ArrayDeque<Entry> window : windows) {
            if (w++ >= historyGossip) {
                break;
            }
            for (var it = window.descendingIterator(); it.hasNext(); ) {
                Entry e = it.next();
                if (e.topic.equals(topic)) {
                    ids.add(e.id);
                }
            }
        }
        return ids;
    }

    /** Starts a new heartbeat window; the window older than {@code historyLength} leaves the cache. */
    void shift() {
        windows.addFirst(new ArrayDeque<>());
        while (windows.size() > historyLength) {
            for (Entry e : windows.removeLast()) {
                remove(e);
            }
        }
    }

    private boolean evictOldest() {
        for (var it = windows.descendingIterator(); it.hasNext(); ) {
            Entry oldest = it.next().pollFirst();
            if (oldest != null) {
                remove(oldest);
                return true;
            }
        }
        return false;
    }

    private void remove(Entry e) {
        if (!e.removed) {
            e.removed = true;
            entries.remove(e.id);
            bytes -= e.rpc.readableBytes();
            e.rpc.release();
        }
    }

    int size() {
        return entries.size();
    }

    long bytes() {
        return bytes;
    }

    long evictedEarly() {
        return evictedEarly;
    }

    /** Releases every cached message. */
    void clear() {
        for (ArrayDeque<Entry> window : windows) {
            for (Entry e : window) {
                remove(e);
            }
        }
        windows.clear();
        windows.addFirst(new ArrayDeque<>());
    }
}
