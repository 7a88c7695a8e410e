package io.wakurelay.rln.proof;

import io.wakurelay.rln.crypto.PrimeField;

import java.math.BigInteger;

/**
 * An affine point of BN254's G2, y² = x³ + 3/(9 + u) over Fp2, immutable; or the point at infinity. Every point made
 * here from outside data is on the twist and in its order-r subgroup: the twist's group has a cofactor (2p - r), so
 * each point is checked, with the test of eprint 2022/348 (section 5.1, as gnark-crypto does it) rather than [r]P = O:
 * [x+1]P + ψ([x]P) + ψ²([x]P) = ψ³([2x]P), with x the curve's 63-bit parameter and ψ the untwist-Frobenius-twist
 * endomorphism, a quarter of the doublings. The tests hold it to [r]P = O on points inside and outside the subgroup.
 */
final class G2Point {
    static final Fp2 B;
    private static final BigInteger R = PrimeField.SCALAR.modulus();
    /** BN254's parameter x (p and r are polynomials in it). */
    private static final BigInteger X = new BigInteger("4965661367192848881");
    /** ψ(x, y) = (conj(x)·ξ^((p-1)/3), conj(y)·ξ^((p-1)/2)), ξ = 9 + u. */
    private static final Fp2 PSI_X;
    private static final Fp2 PSI_Y;

    static {
        Fp2 xi = Fp2.of(BigInteger.valueOf(9), BigInteger.ONE);
        Fp2 inverse = new Fp2();
        Fp2.inverse(xi, inverse);
        B = new Fp2();
        Fp2.mul(Fp2.of(BigInteger.valueOf(3), BigInteger.ZERO), inverse, B);
        BigInteger pMinusOne = Fp2.FP.modulus().subtract(BigInteger.ONE);
        PSI_X = Fp2.pow(xi, pMinusOne.divide(BigInteger.valueOf(3)));
        PSI_Y = Fp2.pow(xi, pMinusOne.shiftRight(1));
    }

    static final G2Point INFINITY = new G2Point(null, null);

    /** null for the point at infinity. */
    private final Fp2 x;
    private final Fp2 y;

    private G2Point(Fp2 x, Fp2 y) {
        this.x = x;
        this.y = y;
    }

    /** The point (x, y), refused when not on the twist or not in the order-r subgroup. */
    static G2Point of(Fp2 x, Fp2 y) throws PointDecodingException {
        G2Point p = new G2Point(x.copy(), y.copy());
        if (!p.isOnCurve()) {
            throw new PointDecodingException("G2 point not on the curve");
        }
        if (!p.isInSubgroup()) {
            throw new PointDecodingException("G2 point not in the order-r subgroup");
        }
        return p;
    }

    /** The point with this x and the larger (c1 first, then c0) or the smaller of its two y; subgroup-checked. */
    static G2Point decompress(Fp2 x, boolean largerY) throws PointDecodingException {
        Fp2 y = Fp2.sqrt(rightHandSide(x));
        if (y == null) {
            throw new PointDecodingException("G2 x is not the x of a curve point");
        }
        Fp2 negY = new Fp2();
        Fp2.neg(y, negY);
        boolean yIsLarger = y.compare(negY) > 0;
        G2Point p = new G2Point(x.copy(), yIsLarger == largerY ? y : negY);
        if (!p.isInSubgroup()) {
            throw new PointDecodingException("G2 point not in the order-r subgroup");
        }
        return p;
    }

    /** The point of this x, unchecked against the subgroup: for tests that need points outside it. */
    static G2Point decompressUnchecked(Fp2 x, boolean largerY) {
        Fp2 y = Fp2.sqrt(rightHandSide(x));
        if (y == null) {
            return null;
        }
        Fp2 negY = new Fp2();
        Fp2.neg(y, negY);
        return new G2Point(x.copy(), (y.compare(negY) > 0) == largerY ? y : negY);
    }

    private static Fp2 rightHandSide(Fp2 x) {
        Fp2 rhs = new Fp2();
        Fp2.square(x, rhs);
        Fp2.mul(rhs, x, rhs);
        Fp2.add(rhs, B, rhs);
        return rhs;
    }

    boolean isInfinity() {
        return x == null;
    }

    boolean isOnCurve() {
        if (isInfinity()) {
            return true;
        }
        Fp2 y2 = new Fp2();
        Fp2.square(y, y2);
        return y2.equal(rightHandSide(x));
    }

    /** [x+1]P + ψ([x]P) + ψ²([x]P) = ψ³([2x]P), equivalent to [r]P = O for points of the twist. */
    boolean isInSubgroup() {
        if (isInfinity()) {
            return true;
        }
        G2Point xp = multiply(X);
        Jacobian left = new Jacobian();
        left.addAffine(x, y);
        left.add(xp);
        G2Point psi = xp.psi();
        left.add(psi);
        left.add(psi.psi());
        Jacobian twice = new Jacobian();
        twice.add(xp);
        twice.doubleInPlace();
        G2Point right = twice.toAffine().psi().psi().psi();
        return left.toAffine().equals(right);
    }

    /** [r]P = O: the definition, slower; the reference of the tests. */
    boolean isInSubgroupByOrder() {
        return isInfinity() || multiply(R).isInfinity();
    }

    /** ψ(P). */
    G2Point psi() {
        if (isInfinity()) {
            return INFINITY;
        }
        Fp2 px = new Fp2();
        Fp2 py = new Fp2();
        Fp2.conjugate(x, px);
        Fp2.mul(px, PSI_X, px);
        Fp2.conjugate(y, py);
        Fp2.mul(py, PSI_Y, py);
        return new G2Point(px, py);
    }

    /** [k]P for k ≥ 0, by double-and-add. */
    G2Point multiply(BigInteger k) {
        if (isInfinity() || k.signum() == 0) {
            return INFINITY;
        }
        Jacobian acc = new Jacobian();
        for (int i = k.bitLength() - 1; i >= 0; i--) {
            acc.doubleInPlace();
            if (k.testBit(i)) {
                acc.addAffine(x, y);
            }
        }
        return acc.toAffine();
    }

    boolean yIsLarger() {
        Fp2 negY = new Fp2();
        Fp2.neg(y, negY);
        return y.compare(negY) > 0;
    }

    Fp2 x() {
        return x.copy();
    }

    Fp2 y() {
        return y.copy();
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof G2Point other)) {
            return false;
        }
        if (isInfinity() || other.isInfinity()) {
            return isInfinity() == other.isInfinity();
        }
        return x.equal(other.x) && y.equal(other.y);
    }

    @Override
    public int hashCode() {
        return isInfinity() ? 0 : java.util.Arrays.hashCode(x.c0);
    }

    @Override
    public String toString() {
        return isInfinity() ? "G2(infinity)" : "G2(" + x + ", " + y + ")";
    }

    /** A point in Jacobian coordinates (X/Z², Y/Z³), Z = 0 at infinity; curve coefficient a = 0. */
    private static final class Jacobian {
        final Fp2 x = new Fp2();
        final Fp2 y = new Fp2();
        final Fp2 z = new Fp2();
        final Fp2 t0 = new Fp2();
        final Fp2 t1 = new Fp2();
        final Fp2 t2 = new Fp2();
        final Fp2 t3 = new Fp2();
        final Fp2 t4 = new Fp2();
        final Fp2 t5 = new Fp2();

        boolean isInfinity() {
            return z.isZero();
        }

        /** this += p, p affine (or infinity). */
        void add(G2Point p) {
            if (!p.isInfinity()) {
                addAffine(p.x, p.y);
            }
        }

        /** dbl-2009-l. */
        void doubleInPlace() {
            if (isInfinity()) {
                return;
            }
            Fp2.square(x, t0);            // A = X²
            Fp2.square(y, t1);            // B = Y²
            Fp2.square(t1, t2);           // C = B²
            Fp2.add(x, t1, t3);
            Fp2.square(t3, t3);
            Fp2.sub(t3, t0, t3);
            Fp2.sub(t3, t2, t3);
            Fp2.dbl(t3, t3);              // D = 2((X + B)² - A - C)
            Fp2.dbl(t0, t4);
            Fp2.add(t4, t0, t4);          // E = 3A
            Fp2.square(t4, t5);           // F = E²
            Fp2.mul(y, z, z);
            Fp2.dbl(z, z);                // Z3 = 2 Y Z
            Fp2.sub(t5, t3, x);
            Fp2.sub(x, t3, x);            // X3 = F - 2D
            Fp2.sub(t3, x, t3);
            Fp2.mul(t4, t3, y);
            Fp2.dbl(t2, t2);
            Fp2.dbl(t2, t2);
            Fp2.dbl(t2, t2);
            Fp2.sub(y, t2, y);            // Y3 = E (D - X3) - 8C
        }

        /** this += (ax, ay), madd-2007-bl, with the doubling and opposite-point cases. */
        void addAffine(Fp2 ax, Fp2 ay) {
            if (isInfinity()) {
                x.set(ax);
                y.set(ay);
                z.set(new Fp2(Fp2.FP.one(), new long[4]));
                return;
            }
            Fp2.square(z, t0);            // Z1Z1
            Fp2.mul(ax, t0, t1);          // U2 = X2 Z1Z1
            Fp2.mul(z, t0, t2);
            Fp2.mul(ay, t2, t2);          // S2 = Y2 Z1 Z1Z1
            Fp2.sub(t1, x, t1);           // H = U2 - X1
            Fp2.sub(t2, y, t2);
            Fp2.dbl(t2, t2);              // r = 2 (S2 - Y1)
            if (t1.isZero()) {
                if (t2.isZero()) {
                    doubleInPlace();
                } else {
                    z.set(new Fp2());     // P + (-P)
                }
                return;
            }
            Fp2.square(t1, t3);           // HH
            Fp2.dbl(t3, t4);
            Fp2.dbl(t4, t4);              // I = 4 HH
            Fp2.mul(t1, t4, t5);          // J = H I
            Fp2.mul(x, t4, t4);           // V = X1 I
            // Z3 = (Z1 + H)² - Z1Z1 - HH
            Fp2.add(z, t1, z);
            Fp2.square(z, z);
            Fp2.sub(z, t0, z);
            Fp2.sub(z, t3, z);
            // X3 = r² - J - 2V
            Fp2.square(t2, x);
            Fp2.sub(x, t5, x);
            Fp2.sub(x, t4, x);
            Fp2.sub(x, t4, x);
            // Y3 = r (V - X3) - 2 Y1 J
            Fp2.mul(y, t5, t5);
            Fp2.dbl(t5, t5);
            Fp2.sub(t4, x, t4);
            Fp2.mul(t2, t4, y);
            Fp2.sub(y, t5, y);
        }

        G2Point toAffine() {
            if (isInfinity()) {
                return INFINITY;
            }
            Fp2 zInv = new Fp2();
            Fp2.inverse(z, zInv);
            Fp2 zInv2 = new Fp2();
            Fp2.square(zInv, zInv2);
            Fp2 ax = new Fp2();
            Fp2.mul(x, zInv2, ax);
            Fp2.mul(zInv2, zInv, zInv2);
            Fp2 ay = new Fp2();
            Fp2.mul(y, zInv2, ay);
            return new G2Point(ax, ay);
        }
    }
}
