package io.wakurelay.rln.crypto;

import java.math.BigInteger;
import java.util.HashSet;
import java.util.Set;

/**
 * Poseidon's constants for one width over BN254's r, generated as circomlib's were: the reference script's Grain LFSR
 * (field size 254, R_F = 8, R_P given) first yields (R_F + R_P)·t round constants, each drawn as 254 bits and drawn
 * again while not below r, then 2t more 254-bit values, reduced mod r, as the points x_0..x_{t-1}, y_0..y_{t-1} of
 * the Cauchy matrix M[i][j] = 1 / (x_i + y_j). The vectors of poseidon.json prove the result.
 */
final class PoseidonParameters {
    static final int FULL_ROUNDS = 8;
    private static final int FIELD_BITS = 254;
    private static final PrimeField FR = PrimeField.SCALAR;

    final int width;
    final int partialRounds;
    /** Round constant {@code roundConstants[round * width + i]}, Montgomery form. */
    final long[][] roundConstants;
    /** {@code mds[i][j]}, Montgomery form: the new state[i] is the sum over j of mds[i][j]·state[j]. */
    final long[][][] mds;

    private PoseidonParameters(int width, int partialRounds, long[][] roundConstants, long[][][] mds) {
        this.width = width;
        this.partialRounds = partialRounds;
        this.roundConstants = roundConstants;
        this.mds = mds;
    }

    static PoseidonParameters generate(int width, int partialRounds) {
        BigInteger r = FR.modulus();
        GrainLfsr lfsr = new GrainLfsr(FIELD_BITS, width, FULL_ROUNDS, partialRounds);
        long[][] constants = new long[(FULL_ROUNDS + partialRounds) * width][];
        for (int i = 0; i < constants.length; i++) {
            BigInteger c = lfsr.nextInteger(FIELD_BITS);
            while (c.compareTo(r) >= 0) {
                c = lfsr.nextInteger(FIELD_BITS);
            }
            constants[i] = FR.fromBigInteger(c);
        }
        BigInteger[] points = distinctPoints(lfsr, 2 * width, r);
        long[][][] mds = new long[width][width][];
        for (int i = 0; i < width; i++) {
            for (int j = 0; j < width; j++) {
                BigInteger sum = points[i].add(points[width + j]).mod(r);
                if (sum.signum() == 0) {
                    throw new IllegalStateException("x_i + y_j = 0: the reference script would draw again");
                }
                mds[i][j] = FR.fromBigInteger(sum.modInverse(r));
            }
        }
        return new PoseidonParameters(width, partialRounds, constants, mds);
    }

    private static BigInteger[] distinctPoints(GrainLfsr lfsr, int count, BigInteger r) {
        while (true) {
            BigInteger[] points = new BigInteger[count];
            Set<BigInteger> seen = new HashSet<>();
            for (int i = 0; i < count; i++) {
                points[i] = lfsr.nextInteger(FIELD_BITS).mod(r);
                seen.add(points[i]);
            }
            if (seen.size() == count) {
                return points;
            }
        }
    }
}
