package io.wakurelay.rln.crypto;

import io.netty.buffer.ByteBuf;

import java.math.BigInteger;
import java.util.Arrays;

/**
 * An element of BN254's scalar field r (RLN's field: nullifiers, shares, roots, Poseidon's values), immutable. On the
 * wire it is 32 bytes little-endian, and only the canonical encoding (below r) is an element: reading never reduces.
 */
public final class FieldElement {
    private static final PrimeField FR = PrimeField.SCALAR;

    public static final FieldElement ZERO = new FieldElement(FR.zero());
    public static final FieldElement ONE = new FieldElement(FR.one());

    /** Montgomery form; never handed out. */
    private final long[] mont;

    private FieldElement(long[] mont) {
        this.mont = mont;
    }

    /** Takes ownership of a Montgomery-form element of {@link PrimeField#SCALAR}. */
    static FieldElement wrap(long[] mont) {
        return new FieldElement(mont);
    }

    /** A copy of the Montgomery form, for arithmetic in {@link PrimeField#SCALAR}. */
    long[] montgomery() {
        return mont.clone();
    }

    /** The element of a value in [0, r). */
    public static FieldElement of(BigInteger value) {
        return new FieldElement(FR.fromBigInteger(value));
    }

    public static FieldElement of(long value) {
        if (value < 0) {
            throw new IllegalArgumentException("negative: " + value);
        }
        return of(BigInteger.valueOf(value));
    }

    /**
     * Reads 32 little-endian bytes at {@code offset}.
     *
     * @throws IllegalArgumentException when the value is not below r (a non-canonical encoding)
     */
    public static FieldElement fromLittleEndian(byte[] bytes, int offset) {
        long[] a = new long[4];
        if (!FR.readLittleEndian(bytes, offset, a)) {
            throw new IllegalArgumentException("not a canonical field element (not below r)");
        }
        return new FieldElement(a);
    }

    /** {@link #fromLittleEndian(byte[], int)} of exactly 32 bytes. */
    public static FieldElement fromLittleEndian(byte[] bytes) {
        if (bytes.length != PrimeField.BYTES) {
            throw new IllegalArgumentException("a field element is 32 bytes, got " + bytes.length);
        }
        return fromLittleEndian(bytes, 0);
    }

    /** Reads 32 little-endian bytes at {@code index} of a buffer, indexes unchanged; refuses values not below r. */
    public static FieldElement fromLittleEndian(ByteBuf buf, int index) {
        long[] a = new long[4];
        if (!FR.readLittleEndian(buf, index, a)) {
            throw new IllegalArgumentException("not a canonical field element (not below r)");
        }
        return new FieldElement(a);
    }

    /** True when the 32 little-endian bytes at {@code offset} are a canonical encoding (a value below r). */
    public static boolean isCanonical(byte[] bytes, int offset) {
        return FR.isCanonicalLittleEndian(bytes, offset);
    }

    /** Reads 32 little-endian bytes as an integer and reduces it mod r (only where a derivation says so). */
    public static FieldElement reduceLittleEndian(byte[] bytes, int offset, int length) {
        byte[] be = new byte[length + 1];
        for (int i = 0; i < length; i++) {
            be[length - i] = bytes[offset + i];
        }
        return of(new BigInteger(be).mod(FR.modulus()));
    }

    /** The 32-byte little-endian encoding. */
    public byte[] toLittleEndian() {
        byte[] out = new byte[PrimeField.BYTES];
        FR.writeLittleEndian(mont, out, 0);
        return out;
    }

    public void writeLittleEndian(byte[] dst, int offset) {
        FR.writeLittleEndian(mont, dst, offset);
    }

    public void writeBigEndian(byte[] dst, int offset) {
        FR.writeBigEndian(mont, dst, offset);
    }

    public BigInteger toBigInteger() {
        return FR.toBigInteger(mont);
    }

    public FieldElement add(FieldElement other) {
        long[] out = new long[4];
        FR.add(mont, other.mont, out);
        return new FieldElement(out);
    }

    public FieldElement multiply(FieldElement other) {
        long[] out = new long[4];
        FR.mul(mont, other.mont, out);
        return new FieldElement(out);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FieldElement other && Arrays.equals(mont, other.mont);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(mont);
    }

    /** The value in decimal, as the test vectors and snarkjs write it. */
    @Override
    public String toString() {
        return toBigInteger().toString();
    }
}
