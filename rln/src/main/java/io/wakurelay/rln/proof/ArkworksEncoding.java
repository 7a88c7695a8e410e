package io.wakurelay.rln.proof;

import io.wakurelay.rln.crypto.PrimeField;

/**
 * arkworks' compressed encoding of BN254 points, as zerokit writes the 128-byte RLN proof: the x coordinate
 * little-endian (G2's x as c0 ‖ c1), the two top bits of the point's last byte as flags. Bit 7 says that y is the
 * larger of y and -y (Fp2 compared c1 first, then c0), bit 6 marks the point at infinity; both set is invalid. As in
 * arkworks, x must be below p even when the infinity flag is set, and is otherwise ignored then.
 */
final class ArkworksEncoding {
    static final int G1_BYTES = 32;
    static final int G2_BYTES = 64;
    private static final int LARGER_Y = 0x80;
    private static final int INFINITY = 0x40;
    private static final PrimeField FP = PrimeField.BASE;

    private ArkworksEncoding() {
    }

    static G1Point readG1(byte[] bytes, int offset) throws PointDecodingException {
        int flags = bytes[offset + 31] & 0xC0;
        if (flags == (LARGER_Y | INFINITY)) {
            throw new PointDecodingException("G1 point with both flags set");
        }
        long[] x = readWithoutFlags(bytes, offset, "G1 x");
        if (flags == INFINITY) {
            return G1Point.INFINITY;
        }
        return G1Point.decompress(x, flags == LARGER_Y);
    }

    static G2Point readG2(byte[] bytes, int offset) throws PointDecodingException {
        int flags = bytes[offset + 63] & 0xC0;
        if (flags == (LARGER_Y | INFINITY)) {
            throw new PointDecodingException("G2 point with both flags set");
        }
        long[] c0 = new long[4];
        if (!FP.readLittleEndian(bytes, offset, c0)) {
            throw new PointDecodingException("G2 x.c0 not below p");
        }
        long[] c1 = readWithoutFlags(bytes, offset + 32, "G2 x.c1");
        if (flags == INFINITY) {
            return G2Point.INFINITY;
        }
        return G2Point.decompress(new Fp2(c0, c1), flags == LARGER_Y);
    }

    private static long[] readWithoutFlags(byte[] bytes, int offset, String what) throws PointDecodingException {
        byte[] copy = new byte[32];
        System.arraycopy(bytes, offset, copy, 0, 32);
        copy[31] &= 0x3F;
        long[] value = new long[4];
        if (!FP.readLittleEndian(copy, 0, value)) {
            throw new PointDecodingException(what + " not below p");
        }
        return value;
    }

    static void writeG1(G1Point p, byte[] out, int offset) {
        if (p.isInfinity()) {
            java.util.Arrays.fill(out, offset, offset + 32, (byte) 0);
            out[offset + 31] = (byte) INFINITY;
            return;
        }
        FP.writeLittleEndian(p.x(), out, offset);
        if (p.yIsLarger()) {
            out[offset + 31] |= (byte) LARGER_Y;
        }
    }

    static void writeG2(G2Point p, byte[] out, int offset) {
        if (p.isInfinity()) {
            java.util.Arrays.fill(out, offset, offset + 64, (byte) 0);
            out[offset + 63] = (byte) INFINITY;
            return;
        }
        Fp2 x = p.x();
        FP.writeLittleEndian(x.c0, out, offset);
        FP.writeLittleEndian(x.c1, out, offset + 32);
        if (p.yIsLarger()) {
            out[offset + 63] |= (byte) LARGER_Y;
        }
    }
}
