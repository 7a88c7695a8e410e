package io.wakurelay.rln.proof;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.wakurelay.rln.RlnConfig;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The wire of field 21, read with protobuf's rules, and the cheap checks. */
class RateLimitProofTest {
    private static final BigInteger R = io.wakurelay.rln.crypto.PrimeField.SCALAR.modulus();

    /** Fields 1..7 as nwaku writes them, each value given (null: left out). */
    static byte[] encode(byte[]... fields) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            CodedOutputStream out = CodedOutputStream.newInstance(bytes);
            for (int i = 0; i < fields.length; i++) {
                if (fields[i] != null) {
                    out.writeBytes(i + 1, ByteString.copyFrom(fields[i]));
                }
            }
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    static byte[][] honestFields(long epoch) {
        byte[] epochBytes = new byte[32];
        for (int i = 0; i < 8; i++) {
            epochBytes[i] = (byte) (epoch >>> (8 * i));
        }
        byte[][] f = new byte[7][];
        f[0] = filled(128, 1);
        f[1] = filled(32, 2);
        f[2] = epochBytes;
        f[3] = filled(32, 4);
        f[4] = filled(32, 5);
        f[5] = filled(32, 6);
        f[6] = Arrays.copyOf(RlnConfig.RLN_IDENTIFIER.getBytes(StandardCharsets.US_ASCII), 32);
        return f;
    }

    private static byte[] filled(int length, int value) {
        byte[] b = new byte[length];
        Arrays.fill(b, (byte) value);
        return b;
    }

    private static RateLimitProof decode(byte[] encoded) throws MalformedRateLimitProofException {
        ByteBuf buf = Unpooled.directBuffer(encoded.length + 2).writeZero(2).writeBytes(encoded).skipBytes(2);
        try {
            RateLimitProof proof = RateLimitProof.decode(buf);
            assertThat(buf.readerIndex()).isEqualTo(2);
            return proof;
        } finally {
            buf.release();
        }
    }

    @Test
    void readsTheSevenFieldsAsNwakuWritesThem() throws Exception {
        byte[][] f = honestFields(2941667);
        RateLimitProof proof = decode(encode(f));
        assertThat(proof.proof()).isEqualTo(f[0]);
        assertThat(proof.merkleRoot()).isEqualTo(f[1]);
        assertThat(proof.epochBytes()).isEqualTo(f[2]);
        assertThat(proof.shareX()).isEqualTo(f[3]);
        assertThat(proof.shareY()).isEqualTo(f[4]);
        assertThat(proof.nullifier()).isEqualTo(f[5]);
        assertThat(proof.rlnIdentifier()).isEqualTo(f[6]);
        assertThat(proof.epoch()).isEqualTo(2941667);
        assertThat(proof.hasEpoch(2941667)).isTrue();
        assertThat(proof.hasEpoch(2941666)).isFalse();
        assertThat(proof.checkFields()).isEqualTo(FieldCheck.OK);
    }

    @Test
    void anAbsentFieldIsZerosAndTheLastOfARepeatedFieldWins() throws Exception {
        byte[][] f = honestFields(7);
        f[1] = null;
        byte[] encoded = encode(f);
        byte[] again = encode(null, null, null, null, null, filled(32, 9));
        byte[] both = Arrays.copyOf(encoded, encoded.length + again.length);
        System.arraycopy(again, 0, both, encoded.length, again.length);
        RateLimitProof proof = decode(both);
        assertThat(proof.merkleRoot()).containsOnly(0);
        assertThat(proof.nullifier()).containsOnly(9);
        assertThat(decode(new byte[0]).proof()).containsOnly(0);
    }

    @Test
    void skipsUnknownFieldsAndKnownNumbersOfAnotherWireType() throws Exception {
        byte[] encoded = encode(honestFields(7));
        byte[] extra = {(byte) 0x40, 5, (byte) 0x08, 1, (byte) 0x95, 1, 0, 0, 0, 0}; // field 8 varint, 1 varint, 18 fixed32
        byte[] all = Arrays.copyOf(encoded, encoded.length + extra.length);
        System.arraycopy(extra, 0, all, encoded.length, extra.length);
        assertThat(decode(all).proof()).isEqualTo(honestFields(7)[0]);
    }

    @Test
    void refusesTruncatedProtobufAndFieldsOfAnotherLength() {
        byte[] encoded = encode(honestFields(7));
        assertThatThrownBy(() -> decode(Arrays.copyOf(encoded, encoded.length - 1)))
                .isInstanceOf(MalformedRateLimitProofException.class).hasMessageContaining("truncated");
        for (int field = 0; field < 7; field++) {
            byte[][] f = honestFields(7);
            f[field] = Arrays.copyOf(f[field], f[field].length + (field % 2 == 0 ? 1 : -1));
            int number = field + 1;
            assertThatThrownBy(() -> decode(encode(f))).as("field %d", number)
                    .isInstanceOf(MalformedRateLimitProofException.class)
                    .hasMessageContaining("field " + number + " is");
        }
    }

    @Test
    void eachCheapCheckHasItsOwnOutcome() throws Exception {
        for (int field : new int[] {1, 3, 4, 5}) { // root, x, y, nullifier (0-based)
            byte[][] f = honestFields(7);
            byte[] r = new byte[32];
            for (int i = 0; i < 32; i++) {
                r[i] = R.shiftRight(8 * i).byteValue();
            }
            f[field] = r;
            assertThat(decode(encode(f)).checkFields()).as("field %d = r", field + 1)
                    .isEqualTo(FieldCheck.NON_CANONICAL_FIELD);
            assertThat(FieldCheck.NON_CANONICAL_FIELD.verdict()).isEqualTo(ProofVerdict.PROOF_VERIFICATION_ERROR);
        }
        byte[][] f = honestFields(7);
        f[2][31] = 1;
        assertThat(decode(encode(f)).checkFields()).isEqualTo(FieldCheck.NOT_AN_EPOCH);
        assertThat(decode(encode(f)).hasEpoch(7)).isFalse();
        f = honestFields(7);
        f[6] = Arrays.copyOf("rln/some-other-app/v1.0.0".getBytes(StandardCharsets.US_ASCII), 32);
        assertThat(decode(encode(f)).checkFields()).isEqualTo(FieldCheck.FOREIGN_RLN_IDENTIFIER);
        assertThat(FieldCheck.FOREIGN_RLN_IDENTIFIER.verdict()).isEqualTo(ProofVerdict.INVALID_PROOF);
    }
}
