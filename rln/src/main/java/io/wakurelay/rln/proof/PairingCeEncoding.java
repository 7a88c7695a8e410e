package io.wakurelay.rln.proof;

import io.wakurelay.rln.crypto.FieldElement;
import io.wakurelay.rln.crypto.PrimeField;

/**
 * pairing_ce's compressed encoding of BN256 points and its scalars, what zwaves' {@code bn256.Groth16.verify} reads:
 * big-endian, flags in the top bits of the first byte (bit 7: y is the larger of y and -y, pairing_ce's
 * {@code y > -y}; bit 6: infinity); G2's x as c1 ‖ c0, compared c1 first for the flag. Scalars are 32 bytes
 * big-endian. Written only from points this verifier decoded and checked itself.
 */
final class PairingCeEncoding {
    static final int G1_BYTES = 32;
    static final int G2_BYTES = 64;
    static final int SCALAR_BYTES = 32;
    private static final PrimeField FP = PrimeField.BASE;

    private PairingCeEncoding() {
    }

    static void writeG1(G1Point p, byte[] out, int offset) {
        if (p.isInfinity()) {
            throw new IllegalArgumentException("the point at infinity is refused before the backend");
        }
        FP.writeBigEndian(p.x(), out, offset);
        if (p.yIsLarger()) {
            out[offset] |= (byte) 0x80;
        }
    }

    static void writeG2(G2Point p, byte[] out, int offset) {
        if (p.isInfinity()) {
            throw new IllegalArgumentException("the point at infinity is refused before the backend");
        }
        Fp2 x = p.x();
        FP.writeBigEndian(x.c1, out, offset);
        FP.writeBigEndian(x.c0, out, offset + 32);
        if (p.yIsLarger()) {
            out[offset] |= (byte) 0x80;
        }
    }

    static void writeScalar(FieldElement s, byte[] out, int offset) {
        s.writeBigEndian(out, offset);
    }
}
