package io.wakurelay.rln.crypto;

import java.math.BigInteger;

/**
 * The Grain LFSR of the Poseidon paper's reference parameter script (generate_parameters_grain.sage), in self-shrinking
 * mode: the source of Poseidon's round constants and of the points of its Cauchy MDS matrix. An 80-bit state seeded
 * with the field type, S-box type, field size, width and round numbers, then 160 clocks discarded; each output bit
 * is the second of a pair whose first bit is 1 (pairs with a first bit of 0 are dropped).
 */
final class GrainLfsr {
    private final int[] bits = new int[80];
    /** Index in {@link #bits} of the sequence's bit 0: the buffer is circular. */
    private int head;

    /**
     * @param fieldSize bits of the prime (254 for BN254's r)
     * @param width     Poseidon's t
     * @param fullRounds R_F
     * @param partialRounds R_P
     */
    GrainLfsr(int fieldSize, int width, int fullRounds, int partialRounds) {
        int pos = 0;
        pos = put(1, 2, pos); // a prime field
        pos = put(0, 4, pos); // S-box x^alpha
        pos = put(fieldSize, 12, pos);
        pos = put(width, 12, pos);
        pos = put(fullRounds, 10, pos);
        pos = put(partialRounds, 10, pos);
        while (pos < 80) {
            bits[pos++] = 1;
        }
        for (int i = 0; i < 160; i++) {
            clock();
        }
    }

    private int put(int value, int width, int pos) {
        for (int i = width - 1; i >= 0; i--) {
            bits[pos++] = (value >>> i) & 1;
        }
        return pos;
    }

    private int at(int i) {
        int j = head + i;
        return bits[j >= 80 ? j - 80 : j];
    }

    /** Shifts in b62 ^ b51 ^ b38 ^ b23 ^ b13 ^ b0 and returns it. */
    private int clock() {
        int bit = at(62) ^ at(51) ^ at(38) ^ at(23) ^ at(13) ^ at(0);
        bits[head] = bit; // bit 0 leaves, the new bit becomes bit 79
        head = head == 79 ? 0 : head + 1;
        return bit;
    }

    int nextBit() {
        int bit = clock();
        while (bit == 0) {
            clock();
            bit = clock();
        }
        return clock();
    }

    /** The next {@code count} bits as an unsigned integer, the first bit the most significant. */
    BigInteger nextInteger(int count) {
        byte[] be = new byte[(count + 7) / 8 + 1];
        for (int i = count - 1; i >= 0; i--) {
            if (nextBit() == 1) {
                be[be.length - 1 - i / 8] |= (byte) (1 << (i % 8));
            }
        }
        return new BigInteger(be);
    }
}
