package io.wakurelay.rln.validation;

import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

/**
 * The nullifiers of the valid messages seen per epoch: a second valid message with a nullifier already logged for its
 * epoch is a double signal (spam, RFC 17). Kept for every epoch a timestamp within the allowed gap of the clock can
 * still map to, so that a double signal across an epoch boundary is still caught (nwaku keeps only the current epoch
 * and forgets the previous one during the first seconds of each); older epochs are dropped as the clock moves.
 *
 * <p>Bounded: at most {@code perEpoch} nullifiers per epoch, and twice that over all the epochs kept (short epochs keep
 * many: 43 of 1 s). The membership contract caps the rate limits of all memberships together (160,000 messages per
 * epoch on The Waku Network), so an epoch that fills its log has seen more valid messages than the network can carry;
 * {@link #record} then answers {@link Outcome#FULL} and the caller drops the message without penalty. Nullifiers are kept whole (32 bytes) in an open-addressing table per epoch that grows with
 * use, 32 bytes per slot, so an idle node holds almost nothing.
 */
final class NullifierLog {
    /** What {@link #record} found. */
    enum Outcome {
        /** First time in its epoch: now logged. */
        LOGGED,
        /** Already logged for that epoch: a double signal. */
        SEEN,
        /** The epoch's log is full: neither logged nor known. */
        FULL
    }

    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private final int perEpoch;
    private final long epochNanos;
    /** How far back and ahead of the clock a valid timestamp may be, with the second that truncation allows. */
    private final long reachNanos;
    private final TreeMap<Long, EpochTable> epochs = new TreeMap<>(); // guarded by this
    private int size; // guarded by this

    NullifierLog(int perEpoch, long epochSizeSec, Duration maxTimestampGap) {
        if (perEpoch < 1 || epochSizeSec < 1) {
            throw new IllegalArgumentException("per epoch and epoch size must be at least 1");
        }
        this.perEpoch = perEpoch;
        this.epochNanos = Math.multiplyExact(epochSizeSec, NANOS_PER_SECOND);
        this.reachNanos = maxTimestampGap.toNanos() + NANOS_PER_SECOND;
    }

    /**
     * Logs the 32-byte {@code nullifier} (little-endian, as on the wire) of a valid message of {@code epoch}, after
     * dropping the epochs no valid timestamp can map to at {@code nowNanos} any more.
     */
    synchronized Outcome record(long epoch, byte[] nullifier, long nowNanos) {
        if (nullifier.length != 32) {
            throw new IllegalArgumentException("a nullifier has 32 bytes, got " + nullifier.length);
        }
        forgetBefore(Math.floorDiv(nowNanos - reachNanos, epochNanos));
        EpochTable table = epochs.computeIfAbsent(epoch, e -> new EpochTable());
        Outcome outcome = table.add(nullifier, Math.min(perEpoch, table.count + 2 * perEpoch - size));
        if (outcome == Outcome.LOGGED) {
            size++;
        }
        return outcome;
    }

    /** Nullifiers logged over all epochs kept (for the gauge). */
    synchronized int size() {
        return size;
    }

    /** The epochs kept (for tests and the gauge). */
    synchronized int epochs() {
        return epochs.size();
    }

    private void forgetBefore(long oldestKept) {
        Iterator<Map.Entry<Long, EpochTable>> it = epochs.headMap(oldestKept, false).entrySet().iterator();
        while (it.hasNext()) {
            size -= it.next().getValue().count;
            it.remove();
        }
    }

    /** One epoch's nullifiers: linear probing over four longs per slot; a zero-filled slot is free. */
    private static final class EpochTable {
        private static final int INITIAL_SLOTS = 64;
        private long[] slots = new long[INITIAL_SLOTS * 4];
        private boolean zeroLogged; // the all-zero nullifier cannot sit in a slot, whose emptiness is all zeros
        private int count;

        /** Adds the nullifier unless known, or unless this table holds {@code capacity} already. */
        Outcome add(byte[] nullifier, int capacity) {
            long a = word(nullifier, 0), b = word(nullifier, 8), c = word(nullifier, 16), d = word(nullifier, 24);
            if ((a | b | c | d) == 0) {
                if (zeroLogged) {
                    return Outcome.SEEN;
                }
                if (count >= capacity) {
                    return Outcome.FULL;
                }
                zeroLogged = true;
                count++;
                return Outcome.LOGGED;
            }
            int at = find(slots, a, b, c, d);
            if (slots[at] == a && slots[at + 1] == b && slots[at + 2] == c && slots[at + 3] == d) {
                return Outcome.SEEN;
            }
            if (count >= capacity) {
                return Outcome.FULL;
            }
            if ((count + 1) * 4L > slots.length / 4 * 3L) { // past three quarters full: double
                grow();
                at = find(slots, a, b, c, d);
            }
            slots[at] = a;
            slots[at + 1] = b;
            slots[at + 2] = c;
            slots[at + 3] = d;
            count++;
            return Outcome.LOGGED;
        }

        /** The index of the slot holding the key, or of the free slot where it belongs. */
        private static int find(long[] slots, long a, long b, long c, long d) {
            int mask = slots.length / 4 - 1;
            int i = mix(a ^ c) & mask;
            while (true) {
                int at = i * 4;
                long sa = slots[at], sb = slots[at + 1], sc = slots[at + 2], sd = slots[at + 3];
                if ((sa | sb | sc | sd) == 0 || (sa == a && sb == b && sc == c && sd == d)) {
                    return at;
                }
                i = (i + 1) & mask;
            }
        }

        private void grow() {
            long[] old = slots;
            long[] bigger = new long[old.length * 2];
            for (int at = 0; at < old.length; at += 4) {
                long a = old[at], b = old[at + 1], c = old[at + 2], d = old[at + 3];
                if ((a | b | c | d) != 0) {
                    int to = find(bigger, a, b, c, d);
                    bigger[to] = a;
                    bigger[to + 1] = b;
                    bigger[to + 2] = c;
                    bigger[to + 3] = d;
                }
            }
            slots = bigger;
        }

        private static int mix(long x) {
            x *= 0x9E3779B97F4A7C15L;
            return (int) (x ^ (x >>> 32));
        }

        private static long word(byte[] b, int off) {
            long v = 0;
            for (int i = 7; i >= 0; i--) {
                v = (v << 8) | (b[off + i] & 0xFF);
            }
            return v;
        }
    }
}
