package io.wakurelay.discovery.enr;

import java.util.Arrays;

/**
 * A strict RLP reader over one byte array, for input a peer sent. It accepts only the canonical encoding (a single
 * byte below 0x80 is never wrapped, a length under 56 is never written in long form, a long length has no leading
 * zero) and never reads past the item that encloses it, so a lie in a length prefix is an error, not a read of the
 * neighbouring bytes. Errors are {@link EnrFormatException}s.
 */
public final class RlpReader {

    private final byte[] input;
    private int position;
    private final int end;

    public RlpReader(byte[] input) {
        this(input, 0, input.length);
    }

    private RlpReader(byte[] input, int from, int end) {
        this.input = input;
        this.position = from;
        this.end = end;
    }

    public boolean hasMore() {
        return position < end;
    }

    /** Reads a list header and returns a reader over the list's payload; this reader moves past the whole list. */
    public RlpReader list() {
        Header header = header();
        if (!header.list) {
            throw new EnrFormatException("expected an RLP list at offset " + header.start);
        }
        return new RlpReader(input, header.payloadStart, header.payloadEnd);
    }

    /** Reads a byte string (a list here is an error). */
    public byte[] bytes() {
        Header header = header();
        if (header.list) {
            throw new EnrFormatException("expected an RLP string, found a list at offset " + header.start);
        }
        return Arrays.copyOfRange(input, header.payloadStart, header.payloadEnd);
    }

    /** An unsigned integer of at most {@code maxBytes} bytes, minimally encoded (no leading zero byte). */
    public long unsigned(int maxBytes) {
        byte[] bytes = bytes();
        if (bytes.length > maxBytes) {
            throw new EnrFormatException("an integer of " + bytes.length + " bytes where at most " + maxBytes
                    + " are allowed");
        }
        if (bytes.length > 0 && bytes[0] == 0) {
            throw new EnrFormatException("an integer with a leading zero byte");
        }
        long value = 0;
        for (byte b : bytes) {
            value = (value << 8) | (b & 0xff);
        }
        return value;
    }

    /** The whole encoding of the next item, string or list, as it stands in the input (checked, not interpreted). */
    public byte[] rawItem() {
        int start = position;
        Header header = header();
        if (header.list) {
            RlpReader nested = new RlpReader(input, header.payloadStart, header.payloadEnd);
            while (nested.hasMore()) {
                nested.rawItem(); // the nested items must be canonical too
            }
        }
        return Arrays.copyOfRange(input, start, position);
    }

    private record Header(boolean list, int start, int payloadStart, int payloadEnd) {
    }

    private Header header() {
        if (position >= end) {
            throw new EnrFormatException("RLP item missing at offset " + position);
        }
        int start = position;
        int prefix = input[position++] & 0xff;
        if (prefix < 0x80) {
            return new Header(false, start, start, start + 1);
        }
        boolean list = prefix >= 0xc0;
        int base = list ? 0xc0 : 0x80;
        int shortForm = prefix - base;
        long length;
        if (shortForm <= 55) {
            length = shortForm;
            if (!list && length == 1) {
                if (position >= end) {
                    throw new EnrFormatException("RLP string truncated at offset " + start);
                }
                if ((input[position] & 0xff) < 0x80) {
                    throw new EnrFormatException("non-canonical RLP: a single byte below 0x80 wrapped at offset " + start);
                }
            }
        } else {
            int lengthOfLength = shortForm - 55;
            if (lengthOfLength > 4 || position + lengthOfLength > end) {
                throw new EnrFormatException("RLP length prefix out of bounds at offset " + start);
            }
            if (input[position] == 0) {
                throw new EnrFormatException("non-canonical RLP: a length with a leading zero at offset " + start);
            }
            length = 0;
            for (int i = 0; i < lengthOfLength; i++) {
                length = (length << 8) | (input[position++] & 0xff);
            }
            if (length < 56) {
                throw new EnrFormatException("non-canonical RLP: a short length in long form at offset " + start);
            }
        }
        if (length > end - position) {
            throw new EnrFormatException("RLP item at offset " + start + " claims " + length + " bytes, "
                    + (end - position) + " remain");
        }
        int payloadStart = position;
        position += (int) length;
        return new Header(list, start, payloadStart, position);
    }
}
