package io.wakurelay.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * The strings of short UTF-8 fields that repeat from message to message (pubsub and content topics), kept so that a
 * repeat is found without allocating: decoding one afresh cost a slice, two arrays, a ByteString and a String per
 * field, a tenth of the bytes a node allocated per received message (docs/benchmarks.md, "Allocation on the write
 * path").
 *
 * <p>A fixed table of {@value #SLOTS} slots indexed by the bytes' hash; a new string takes the slot of an older one.
 * Thread-safe without locks: a slot holds an immutable entry, so a race can only lose an entry, never mix two. Only
 * strings that were checked to be valid UTF-8 are put in: the same bytes are then valid again.
 */
final class RepeatedStrings {
    static final int SLOTS = 256;
    static final int MAX_BYTES = 256;

    private record Entry(byte[] utf8, String value) {
    }

    private final Entry[] slots = new Entry[SLOTS];

    /** The string of {@code length} bytes at {@code index}, if those bytes were put in and are still kept. */
    String find(ByteBuf buf, int index, int length) {
        if (length > MAX_BYTES) {
            return null;
        }
        Entry entry = slots[slot(buf, index, length)];
        return entry != null && sameBytes(entry.utf8(), buf, index, length) ? entry.value() : null;
    }

    /** Keeps {@code value}, whose UTF-8 encoding is {@code utf8} (not copied: the caller gives it up). */
    String keep(byte[] utf8, String value) {
        if (utf8.length <= MAX_BYTES) {
            slots[slot(Unpooled.wrappedBuffer(utf8), 0, utf8.length)] = new Entry(utf8, value);
        }
        return value;
    }

    private static int slot(ByteBuf buf, int index, int length) {
        int h = 1;
        for (int i = 0; i < length; i++) {
            h = 31 * h + buf.getByte(index + i);
        }
        return (h ^ (h >>> 16)) & (SLOTS - 1);
    }

    private static boolean sameBytes(byte[] kept, ByteBuf buf, int index, int length) {
        if (kept.length != length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (kept[i] != buf.getByte(index + i)) {
                return false;
            }
        }
        return true;
    }
}
