package io.wakurelay.rln.proof;

import io.netty.buffer.ByteBuf;
import io.wakurelay.protocol.ProtocolViolation;
import io.wakurelay.protocol.Violation;
import io.wakurelay.protocol.WakuMessageView;
import io.wakurelay.protocol.WireReader;
import io.wakurelay.rln.RlnConfig;
import io.wakurelay.rln.crypto.FieldElement;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The RateLimitProof of WakuMessage field 21 (RFC 17, rln-v2, with nwaku's and js-waku's field 7), decoded once:
 * <pre>
 *   1 proof          128 bytes: arkworks-compressed A (G1) ‖ B (G2) ‖ C (G1)
 *   2 merkle_root     32 bytes, little-endian field element
 *   3 epoch           32 bytes: u64 little-endian, zeros after
 *   4 share_x         32 bytes, little-endian field element
 *   5 share_y         32 bytes, little-endian field element
 *   6 nullifier       32 bytes, little-endian field element
 *   7 rln_identifier  32 bytes: "rln/waku-rln-relay/v2.0.0", zero-padded
 * </pre>
 * Every field is {@code bytes}. Read from the buffer without protobuf-java objects, with protobuf's rules (unknown
 * fields skipped, the last value of a field wins); an absent field is all zeros, as nwaku reads it, so an absent
 * field 21 is a proof of zeros. A field of another length is a decode error (nwaku pads or truncates it). The 320
 * bytes are copied out of the frame: the proof outlives nothing, and verification may run on another thread.
 */
public final class RateLimitProof {
    public static final int PROOF_BYTES = 128;
    public static final int FIELD_BYTES = 32;

    private static final int ROOT = PROOF_BYTES;
    private static final int EPOCH = ROOT + FIELD_BYTES;
    private static final int SHARE_X = EPOCH + FIELD_BYTES;
    private static final int SHARE_Y = SHARE_X + FIELD_BYTES;
    private static final int NULLIFIER = SHARE_Y + FIELD_BYTES;
    private static final int RLN_IDENTIFIER = NULLIFIER + FIELD_BYTES;
    private static final int LENGTH = RLN_IDENTIFIER + FIELD_BYTES;
    /** Where field n (1..7) starts in {@link #bytes}, and its length. */
    private static final int[] OFFSET = {-1, 0, ROOT, EPOCH, SHARE_X, SHARE_Y, NULLIFIER, RLN_IDENTIFIER};
    private static final int[] SIZE = {-1, PROOF_BYTES, 32, 32, 32, 32, 32, 32};

    private static final byte[] WAKU_RLN_IDENTIFIER = identifierBytes(RlnConfig.RLN_IDENTIFIER);

    private final byte[] bytes;

    private RateLimitProof(byte[] bytes) {
        this.bytes = bytes;
    }

    /** The proof of a message: field 21 decoded, or all zeros when the message has none. */
    public static RateLimitProof of(WakuMessageView message) throws MalformedRateLimitProofException {
        return decode(message.rateLimitProof());
    }

    /** Decodes the readable bytes of a serialized RateLimitProof; the buffer's indexes are not moved. */
    public static RateLimitProof decode(ByteBuf encoded) throws MalformedRateLimitProofException {
        byte[] bytes = new byte[LENGTH];
        WireReader in = new WireReader(encoded, encoded.readerIndex(), encoded.readableBytes(),
                Violation.MALFORMED_MESSAGE);
        try {
            while (in.hasMore()) {
                int tag = in.readTag();
                int field = WireReader.fieldNumber(tag);
                if (field > 7 || WireReader.wireType(tag) != WireReader.WIRETYPE_LENGTH_DELIMITED) {
                    in.skipField(tag);
                    continue;
                }
                int start = in.readLengthDelimited();
                int length = in.lastLength(start);
                if (length == 0) {
                    Arrays.fill(bytes, OFFSET[field], OFFSET[field] + SIZE[field], (byte) 0);
                } else if (length == SIZE[field]) {
                    encoded.getBytes(start, bytes, OFFSET[field], length);
                } else {
                    throw new MalformedRateLimitProofException("RateLimitProof field " + field + " is " + length
                            + " bytes, not " + SIZE[field]);
                }
            }
        } catch (ProtocolViolation e) {
            throw new MalformedRateLimitProofException("RateLimitProof is not valid protobuf: " + e.getMessage());
        }
        return new RateLimitProof(bytes);
    }

    /**
     * The checks that cost nanoseconds, in this order: fields 2, 4, 5 and 6 canonical (below r), field 3 an epoch,
     * field 7 the Waku rln identifier. The first that fails is the outcome.
     */
    public FieldCheck checkFields() {
        for (int offset : new int[] {ROOT, SHARE_X, SHARE_Y, NULLIFIER}) {
            if (!FieldElement.isCanonical(bytes, offset)) {
                return FieldCheck.NON_CANONICAL_FIELD;
            }
        }
        if (!isEpoch()) {
            return FieldCheck.NOT_AN_EPOCH;
        }
        if (!Arrays.equals(bytes, RLN_IDENTIFIER, LENGTH, WAKU_RLN_IDENTIFIER, 0, FIELD_BYTES)) {
            return FieldCheck.FOREIGN_RLN_IDENTIFIER;
        }
        return FieldCheck.OK;
    }

    /** True when field 3 is {@code epoch} as u64 little-endian followed by 24 zero bytes (all 32 bytes compared). */
    public boolean hasEpoch(long epoch) {
        return isEpoch() && epoch() == epoch;
    }

    private boolean isEpoch() {
        for (int i = EPOCH + 8; i < EPOCH + FIELD_BYTES; i++) {
            if (bytes[i] != 0) {
                return false;
            }
        }
        return true;
    }

    /** Bytes 0 to 7 of field 3 as an unsigned little-endian u64 (the epoch, when {@link #checkFields()} is OK). */
    public long epoch() {
        long e = 0;
        for (int i = 7; i >= 0; i--) {
            e = (e << 8) | (bytes[EPOCH + i] & 0xFF);
        }
        return e;
    }

    /** Field 1, the 128 bytes of the Groth16 proof. */
    public byte[] proof() {
        return Arrays.copyOfRange(bytes, 0, PROOF_BYTES);
    }

    /** Field 2, as on the wire: compare it with the window of roots byte for byte. */
    public byte[] merkleRoot() {
        return Arrays.copyOfRange(bytes, ROOT, ROOT + FIELD_BYTES);
    }

    /** Field 3, as on the wire. */
    public byte[] epochBytes() {
        return Arrays.copyOfRange(bytes, EPOCH, EPOCH + FIELD_BYTES);
    }

    /** Field 4, as on the wire. */
    public byte[] shareX() {
        return Arrays.copyOfRange(bytes, SHARE_X, SHARE_X + FIELD_BYTES);
    }

    /** Field 5, as on the wire. */
    public byte[] shareY() {
        return Arrays.copyOfRange(bytes, SHARE_Y, SHARE_Y + FIELD_BYTES);
    }

    /** Field 6, as on the wire: the key of the nullifier log (canonical once {@link #checkFields()} is OK). */
    public byte[] nullifier() {
        return Arrays.copyOfRange(bytes, NULLIFIER, NULLIFIER + FIELD_BYTES);
    }

    /** Field 7, as on the wire. */
    public byte[] rlnIdentifier() {
        return Arrays.copyOfRange(bytes, RLN_IDENTIFIER, LENGTH);
    }

    /** The 128 proof bytes in place, for this package's decoder (offset 0). */
    byte[] bytes() {
        return bytes;
    }

    FieldElement fieldElement(int field) {
        return FieldElement.fromLittleEndian(bytes, OFFSET[field]);
    }

    /** A text padded with zeros to 32 bytes, as rln identifiers are written. */
    static byte[] identifierBytes(String identifier) {
        byte[] text = identifier.getBytes(StandardCharsets.UTF_8);
        if (text.length > FIELD_BYTES) {
            throw new IllegalArgumentException("an rln identifier is at most 32 bytes: " + identifier);
        }
        return Arrays.copyOf(text, FIELD_BYTES);
    }

    @Override
    public String toString() {
        return "RateLimitProof(epoch " + epoch() + ", nullifier " + java.util.HexFormat.of().formatHex(nullifier()) + ")";
    }
}
