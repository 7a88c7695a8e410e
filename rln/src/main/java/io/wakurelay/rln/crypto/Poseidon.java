package io.wakurelay.rln.crypto;

/**
 * The Poseidon hash with circomlib's parameters over BN254's scalar field, as RLN (zerokit, the rln-v2 circuit) uses
 * it: width t = inputs + 1, 8 full rounds and 56 (t = 2) or 57 (t = 3) partial rounds, S-box x^5; the state starts as
 * [0, inputs...] and the hash is state[0] after the last round. Each round adds its constants to every element,
 * applies the S-box (to every element in a full round, to state[0] in a partial one), then multiplies by the MDS
 * matrix. The constants are generated on first use (about a millisecond) and shared; hashing allocates only its state.
 */
public final class Poseidon {
    private static final PrimeField FR = PrimeField.SCALAR;

    private Poseidon() {
    }

    /** The parameters, generated once, on first use. */
    private static final class Parameters {
        static final PoseidonParameters T2 = PoseidonParameters.generate(2, 56);
        static final PoseidonParameters T3 = PoseidonParameters.generate(3, 57);
    }

    /** Poseidon of one input (t = 2). */
    public static FieldElement hash(FieldElement input) {
        return FieldElement.wrap(permute(Parameters.T2, input.montgomery(), null));
    }

    /** Poseidon of two inputs (t = 3): a Merkle node of (left, right), an external nullifier, a leaf. */
    public static FieldElement hash(FieldElement first, FieldElement second) {
        return FieldElement.wrap(permute(Parameters.T3, first.montgomery(), second.montgomery()));
    }

    private static long[] permute(PoseidonParameters p, long[] in1, long[] in2) {
        int t = p.width;
        long[][] state = new long[t][];
        state[0] = FR.zero();
        state[1] = in1;
        if (t == 3) {
            state[2] = in2;
        }
        long[][] next = new long[t][4];
        long[] product = new long[4];
        int rounds = PoseidonParameters.FULL_ROUNDS + p.partialRounds;
        int firstPartial = PoseidonParameters.FULL_ROUNDS / 2;
        int lastPartial = firstPartial + p.partialRounds;
        for (int round = 0; round < rounds; round++) {
            for (int i = 0; i < t; i++) {
                FR.add(state[i], p.roundConstants[round * t + i], state[i]);
            }
            boolean full = round < firstPartial || round >= lastPartial;
            for (int i = 0; i < (full ? t : 1); i++) {
                fifthPower(state[i], product);
            }
            for (int i = 0; i < t; i++) {
                long[] acc = next[i];
                FR.mul(p.mds[i][0], state[0], acc);
                for (int j = 1; j < t; j++) {
                    FR.mul(p.mds[i][j], state[j], product);
                    FR.add(acc, product, acc);
                }
            }
            long[][] swap = state;
            state = next;
            next = swap;
        }
        return state[0];
    }

    /** a = a^5, with scratch space. */
    private static void fifthPower(long[] a, long[] scratch) {
        FR.square(a, scratch);
        FR.square(scratch, scratch);
        FR.mul(scratch, a, a);
    }
}
