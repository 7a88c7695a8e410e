package io.wakurelay.rln.proof;

import io.wakurelay.rln.crypto.PrimeField;

import java.math.BigInteger;

/**
 * An affine point of BN254's G1, y² = x³ + 3 over Fp, immutable, on the curve by construction (G1's cofactor is 1,
 * so that is also the subgroup check), or the point at infinity.
 */
final class G1Point {
    private static final PrimeField FP = PrimeField.BASE;
    private static final long[] B = FP.fromBigInteger(BigInteger.valueOf(3));

    static final G1Point INFINITY = new G1Point(null, null);

    /** Montgomery form; null for the point at infinity. */
    private final long[] x;
    private final long[] y;

    private G1Point(long[] x, long[] y) {
        this.x = x;
        this.y = y;
    }

    /** The point (x, y), refused when it is not on the curve. */
    static G1Point of(BigInteger x, BigInteger y) throws PointDecodingException {
        if (x.signum() < 0 || x.compareTo(FP.modulus()) >= 0 || y.signum() < 0 || y.compareTo(FP.modulus()) >= 0) {
            throw new PointDecodingException("G1 coordinate not below p");
        }
        G1Point p = new G1Point(FP.fromBigInteger(x), FP.fromBigInteger(y));
        if (!p.isOnCurve()) {
            throw new PointDecodingException("G1 point not on the curve");
        }
        return p;
    }

    /** The point with this x (Montgomery form, taken over) and the larger or the smaller of its two y. */
    static G1Point decompress(long[] x, boolean largerY) throws PointDecodingException {
        long[] rhs = rightHandSide(x);
        long[] y = Fp2.sqrtFp(rhs);
        if (y == null) {
            throw new PointDecodingException("G1 x is not the x of a curve point");
        }
        long[] negY = new long[4];
        FP.neg(y, negY);
        boolean yIsLarger = FP.compare(y, negY) > 0;
        return new G1Point(x, yIsLarger == largerY ? y : negY);
    }

    private static long[] rightHandSide(long[] x) {
        long[] rhs = new long[4];
        FP.square(x, rhs);
        FP.mul(rhs, x, rhs);
        FP.add(rhs, B, rhs);
        return rhs;
    }

    boolean isInfinity() {
        return x == null;
    }

    boolean isOnCurve() {
        if (isInfinity()) {
            return true;
        }
        long[] y2 = new long[4];
        FP.square(y, y2);
        return FP.equal(y2, rightHandSide(x));
    }

    /** True when y is the larger of y and -y (as integers below p). */
    boolean yIsLarger() {
        long[] negY = new long[4];
        FP.neg(y, negY);
        return FP.compare(y, negY) > 0;
    }

    long[] x() {
        return x.clone();
    }

    BigInteger xValue() {
        return FP.toBigInteger(x);
    }

    BigInteger yValue() {
        return FP.toBigInteger(y);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof G1Point other)) {
            return false;
        }
        if (isInfinity() || other.isInfinity()) {
            return isInfinity() == other.isInfinity();
        }
        return FP.equal(x, other.x) && FP.equal(y, other.y);
    }

    @Override
    public int hashCode() {
        return isInfinity() ? 0 : java.util.Arrays.hashCode(x);
    }

    @Override
    public String toString() {
        return isInfinity() ? "G1(infinity)" : "G1(" + xValue() + ", " + yValue() + ")";
    }
}
