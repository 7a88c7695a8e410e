package io.wakurelay.rln.proof;

import io.wakurelay.rln.crypto.PrimeField;

import java.math.BigInteger;

/**
 * An element c0 + c1·u of Fp2 = Fp[u]/(u² + 1), BN254's G2 coordinate field, mutable; the operations write into an
 * element the caller gives (which may be an operand). Ordered as arkworks and pairing_ce order it: c1 first, then c0.
 */
final class Fp2 {
    static final PrimeField FP = PrimeField.BASE;
    private static final BigInteger P = FP.modulus();
    /** (p + 1) / 4: a square root in Fp is a^((p+1)/4), since p ≡ 3 mod 4. */
    private static final BigInteger SQRT_EXPONENT = P.add(BigInteger.ONE).shiftRight(2);
    private static final long[] HALF = FP.fromBigInteger(BigInteger.TWO.modInverse(P));

    final long[] c0;
    final long[] c1;

    Fp2() {
        this(new long[4], new long[4]);
    }

    Fp2(long[] c0, long[] c1) {
        this.c0 = c0;
        this.c1 = c1;
    }

    static Fp2 of(BigInteger c0, BigInteger c1) {
        return new Fp2(FP.fromBigInteger(c0), FP.fromBigInteger(c1));
    }

    Fp2 copy() {
        return new Fp2(c0.clone(), c1.clone());
    }

    void set(Fp2 a) {
        FP.copy(a.c0, c0);
        FP.copy(a.c1, c1);
    }

    boolean isZero() {
        return FP.isZero(c0) && FP.isZero(c1);
    }

    boolean equal(Fp2 other) {
        return FP.equal(c0, other.c0) && FP.equal(c1, other.c1);
    }

    /** Lexicographic order of the canonical values, c1 first: the order of arkworks' and pairing_ce's y flag. */
    int compare(Fp2 other) {
        int c = FP.compare(c1, other.c1);
        return c != 0 ? c : FP.compare(c0, other.c0);
    }

    BigInteger c0Value() {
        return FP.toBigInteger(c0);
    }

    BigInteger c1Value() {
        return FP.toBigInteger(c1);
    }

    static void add(Fp2 a, Fp2 b, Fp2 out) {
        FP.add(a.c0, b.c0, out.c0);
        FP.add(a.c1, b.c1, out.c1);
    }

    static void sub(Fp2 a, Fp2 b, Fp2 out) {
        FP.sub(a.c0, b.c0, out.c0);
        FP.sub(a.c1, b.c1, out.c1);
    }

    static void neg(Fp2 a, Fp2 out) {
        FP.neg(a.c0, out.c0);
        FP.neg(a.c1, out.c1);
    }

    /** The Frobenius map a^p: c0 - c1 u. */
    static void conjugate(Fp2 a, Fp2 out) {
        FP.copy(a.c0, out.c0);
        FP.neg(a.c1, out.c1);
    }

    /** a^e for e ≥ 0. */
    static Fp2 pow(Fp2 a, BigInteger e) {
        Fp2 acc = new Fp2(FP.one(), new long[4]);
        for (int i = e.bitLength() - 1; i >= 0; i--) {
            square(acc, acc);
            if (e.testBit(i)) {
                mul(acc, a, acc);
            }
        }
        return acc;
    }

    static void dbl(Fp2 a, Fp2 out) {
        add(a, a, out);
    }

    /** (a0 + a1 u)(b0 + b1 u) = a0 b0 - a1 b1 + ((a0 + a1)(b0 + b1) - a0 b0 - a1 b1) u. */
    static void mul(Fp2 a, Fp2 b, Fp2 out) {
        long[] v0 = new long[4];
        long[] v1 = new long[4];
        long[] s = new long[4];
        long[] t = new long[4];
        FP.mul(a.c0, b.c0, v0);
        FP.mul(a.c1, b.c1, v1);
        FP.add(a.c0, a.c1, s);
        FP.add(b.c0, b.c1, t);
        FP.mul(s, t, s);
        FP.sub(s, v0, s);
        FP.sub(s, v1, out.c1);
        FP.sub(v0, v1, out.c0);
    }

    /** (a0 + a1 u)² = (a0 + a1)(a0 - a1) + 2 a0 a1 u. */
    static void square(Fp2 a, Fp2 out) {
        long[] s = new long[4];
        long[] d = new long[4];
        long[] m = new long[4];
        FP.add(a.c0, a.c1, s);
        FP.sub(a.c0, a.c1, d);
        FP.mul(a.c0, a.c1, m);
        FP.mul(s, d, out.c0);
        FP.add(m, m, out.c1);
    }

    /** 1 / (a0 + a1 u) = (a0 - a1 u) / (a0² + a1²); a must not be zero. */
    static void inverse(Fp2 a, Fp2 out) {
        long[] norm = new long[4];
        long[] t = new long[4];
        FP.square(a.c0, norm);
        FP.square(a.c1, t);
        FP.add(norm, t, norm);
        FP.inverse(norm, norm);
        FP.mul(a.c0, norm, out.c0);
        FP.mul(a.c1, norm, t);
        FP.neg(t, out.c1);
    }

    /** A square root of a in Fp, or null when a is not a square. */
    static long[] sqrtFp(long[] a) {
        long[] root = new long[4];
        FP.pow(a, SQRT_EXPONENT, root);
        long[] check = new long[4];
        FP.square(root, check);
        return FP.equal(check, a) ? root : null;
    }

    /**
     * A square root of a, or null when a is not a square. Through the norm: with n = sqrt(a0² + a1²) in Fp,
     * x0 = sqrt((a0 + n) / 2) (or with -n), x1 = a1 / (2 x0); the result is checked by squaring it.
     */
    static Fp2 sqrt(Fp2 a) {
        if (FP.isZero(a.c1)) {
            long[] r = sqrtFp(a.c0);
            if (r != null) {
                return new Fp2(r, new long[4]);
            }
            long[] negA0 = new long[4];
            FP.neg(a.c0, negA0);
            long[] s = sqrtFp(negA0); // (s u)² = -s² = a0
            return s == null ? null : new Fp2(new long[4], s);
        }
        long[] norm = new long[4];
        long[] t = new long[4];
        FP.square(a.c0, norm);
        FP.square(a.c1, t);
        FP.add(norm, t, norm);
        long[] n = sqrtFp(norm);
        if (n == null) {
            return null;
        }
        long[] half = new long[4];
        FP.add(a.c0, n, half);
        FP.mul(half, HALF, half);
        long[] x0 = sqrtFp(half);
        if (x0 == null) {
            FP.sub(a.c0, n, half);
            FP.mul(half, HALF, half);
            x0 = sqrtFp(half);
            if (x0 == null) {
                return null;
            }
        }
        long[] x1 = new long[4];
        FP.add(x0, x0, x1);
        FP.inverse(x1, x1);
        FP.mul(a.c1, x1, x1);
        Fp2 root = new Fp2(x0, x1);
        Fp2 check = new Fp2();
        square(root, check);
        return check.equal(a) ? root : null;
    }

    @Override
    public String toString() {
        return "(" + c0Value() + ", " + c1Value() + ")";
    }
}
