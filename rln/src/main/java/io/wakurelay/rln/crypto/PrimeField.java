package io.wakurelay.rln.crypto;

import io.netty.buffer.ByteBuf;

import java.math.BigInteger;

/**
 * Arithmetic modulo one of BN254's two primes below 2^254, in Montgomery form on four 64-bit limbs (little-endian limb
 * order). An element is a {@code long[4]} holding {@code a·2^256 mod m}, always fully reduced (below m); operations
 * write their result into an array the caller gives (which may be an operand), so that the inner loops of Poseidon,
 * square roots and scalar multiplication allocate nothing.
 *
 * <p>Canonical encodings (32 bytes, little- or big-endian) are read strictly: a value at or above the modulus is
 * refused, never reduced. Long limbs rather than {@link BigInteger}: a Montgomery product here costs a fraction of
 * BigInteger's multiply and remainder, and allocates nothing (docs/adr/0083-groth16-backend.md,
 * {@code FieldArithmeticBenchmark}).
 */
public final class PrimeField {
    /** The BN254 scalar field r: Poseidon, hash to field, the public inputs of the RLN circuit. */
    public static final PrimeField SCALAR = new PrimeField(new BigInteger(
            "21888242871839275222246405745257275088548364400416034343698204186575808495617"));
    /** The BN254 base field p: the coordinates of the curve points. */
    public static final PrimeField BASE = new PrimeField(new BigInteger(
            "21888242871839275222246405745257275088696311157297823662689037894645226208583"));

    /** Bytes of a canonical encoding. */
    public static final int BYTES = 32;

    private final BigInteger modulus;
    private final long[] m;
    /** -m^-1 mod 2^64. */
    private final long inv;
    /** 2^512 mod m: converts into Montgomery form. */
    private final long[] r2;
    private final long[] one;
    private final BigInteger minusTwo;

    private PrimeField(BigInteger modulus) {
        if (modulus.bitLength() > 254 || !modulus.testBit(0)) {
            throw new IllegalArgumentException("an odd modulus below 2^254 is needed");
        }
        this.modulus = modulus;
        this.m = limbs(modulus);
        BigInteger twoTo64 = BigInteger.ONE.shiftLeft(64);
        this.inv = modulus.negate().modInverse(twoTo64).longValue();
        this.r2 = limbs(BigInteger.ONE.shiftLeft(512).mod(modulus));
        this.one = limbs(BigInteger.ONE.shiftLeft(256).mod(modulus));
        this.minusTwo = modulus.subtract(BigInteger.TWO);
    }

    public BigInteger modulus() {
        return modulus;
    }

    /** A new zero element. */
    public long[] zero() {
        return new long[4];
    }

    /** A new element equal to one. */
    public long[] one() {
        return one.clone();
    }

    /** The element of a value in [0, modulus). */
    public long[] fromBigInteger(BigInteger value) {
        if (value.signum() < 0 || value.compareTo(modulus) >= 0) {
            throw new IllegalArgumentException("not below the modulus: " + value);
        }
        long[] a = limbs(value);
        mul(a, r2, a);
        return a;
    }

    /** The element's value in [0, modulus). */
    public BigInteger toBigInteger(long[] a) {
        long[] c = new long[4];
        fromMontgomery(a, c);
        byte[] be = new byte[33];
        for (int i = 0; i < 4; i++) {
            for (int j = 0; j < 8; j++) {
                be[32 - 8 * i - j] = (byte) (c[i] >>> (8 * j));
            }
        }
        return new BigInteger(be);
    }

    /** Reads 32 little-endian bytes; false (and {@code out} unchanged in meaning) when the value is not below m. */
    public boolean readLittleEndian(byte[] src, int offset, long[] out) {
        for (int i = 0; i < 4; i++) {
            long limb = 0;
            for (int j = 7; j >= 0; j--) {
                limb = (limb << 8) | (src[offset + 8 * i + j] & 0xFF);
            }
            out[i] = limb;
        }
        return toMontgomeryIfCanonical(out);
    }

    /** Reads 32 little-endian bytes at {@code index} of a buffer (indexes unchanged); false when not below m. */
    public boolean readLittleEndian(ByteBuf src, int index, long[] out) {
        for (int i = 0; i < 4; i++) {
            out[i] = src.getLongLE(index + 8 * i);
        }
        return toMontgomeryIfCanonical(out);
    }

    /** Reads 32 big-endian bytes; false when not below m. */
    public boolean readBigEndian(byte[] src, int offset, long[] out) {
        for (int i = 0; i < 4; i++) {
            long limb = 0;
            for (int j = 0; j < 8; j++) {
                limb = (limb << 8) | (src[offset + 8 * (3 - i) + j] & 0xFF);
            }
            out[i] = limb;
        }
        return toMontgomeryIfCanonical(out);
    }

    /** True when the 32 little-endian bytes at {@code offset} hold a value below m. */
    public boolean isCanonicalLittleEndian(byte[] src, int offset) {
        long[] limbs = new long[4];
        for (int i = 0; i < 4; i++) {
            long limb = 0;
            for (int j = 7; j >= 0; j--) {
                limb = (limb << 8) | (src[offset + 8 * i + j] & 0xFF);
            }
            limbs[i] = limb;
        }
        return lessThanModulus(limbs);
    }

    /** Writes the canonical value as 32 little-endian bytes. */
    public void writeLittleEndian(long[] a, byte[] dst, int offset) {
        long[] c = new long[4];
        fromMontgomery(a, c);
        for (int i = 0; i < 4; i++) {
            for (int j = 0; j < 8; j++) {
                dst[offset + 8 * i + j] = (byte) (c[i] >>> (8 * j));
            }
        }
    }

    /** Writes the canonical value as 32 big-endian bytes. */
    public void writeBigEndian(long[] a, byte[] dst, int offset) {
        long[] c = new long[4];
        fromMontgomery(a, c);
        for (int i = 0; i < 4; i++) {
            for (int j = 0; j < 8; j++) {
                dst[offset + 8 * (3 - i) + 7 - j] = (byte) (c[i] >>> (8 * j));
            }
        }
    }

    private boolean toMontgomeryIfCanonical(long[] limbs) {
        if (!lessThanModulus(limbs)) {
            return false;
        }
        mul(limbs, r2, limbs);
        return true;
    }

    private boolean lessThanModulus(long[] a) {
        for (int i = 3; i >= 0; i--) {
            int c = Long.compareUnsigned(a[i], m[i]);
            if (c != 0) {
                return c < 0;
            }
        }
        return false;
    }

    public boolean isZero(long[] a) {
        return (a[0] | a[1] | a[2] | a[3]) == 0;
    }

    public boolean isOne(long[] a) {
        return equal(a, one);
    }

    public boolean equal(long[] a, long[] b) {
        return a[0] == b[0] && a[1] == b[1] && a[2] == b[2] && a[3] == b[3];
    }

    /** Compares the canonical values (not the Montgomery forms) as unsigned integers. */
    public int compare(long[] a, long[] b) {
        long[] ca = new long[4];
        long[] cb = new long[4];
        fromMontgomery(a, ca);
        fromMontgomery(b, cb);
        for (int i = 3; i >= 0; i--) {
            int c = Long.compareUnsigned(ca[i], cb[i]);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    public void copy(long[] a, long[] out) {
        System.arraycopy(a, 0, out, 0, 4);
    }

    /** out = a + b. */
    public void add(long[] a, long[] b, long[] out) {
        long s0 = a[0] + b[0];
        long c = Long.compareUnsigned(s0, a[0]) < 0 ? 1 : 0;
        long t = a[1] + c;
        long c1 = Long.compareUnsigned(t, c) < 0 ? 1 : 0;
        long s1 = t + b[1];
        c = c1 | (Long.compareUnsigned(s1, t) < 0 ? 1 : 0);
        t = a[2] + c;
        c1 = Long.compareUnsigned(t, c) < 0 ? 1 : 0;
        long s2 = t + b[2];
        c = c1 | (Long.compareUnsigned(s2, t) < 0 ? 1 : 0);
        long s3 = a[3] + b[3] + c; // both below 2^254: no carry out of the top limb
        out[0] = s0;
        out[1] = s1;
        out[2] = s2;
        out[3] = s3;
        subtractModulusIfNotBelow(out);
    }

    /** out = a - b. */
    public void sub(long[] a, long[] b, long[] out) {
        long d0 = a[0] - b[0];
        long borrow = Long.compareUnsigned(a[0], b[0]) < 0 ? 1 : 0;
        long t = a[1] - b[1];
        long b1 = Long.compareUnsigned(a[1], b[1]) < 0 ? 1 : 0;
        long d1 = t - borrow;
        borrow = b1 | (Long.compareUnsigned(t, borrow) < 0 ? 1 : 0);
        t = a[2] - b[2];
        b1 = Long.compareUnsigned(a[2], b[2]) < 0 ? 1 : 0;
        long d2 = t - borrow;
        borrow = b1 | (Long.compareUnsigned(t, borrow) < 0 ? 1 : 0);
        t = a[3] - b[3];
        b1 = Long.compareUnsigned(a[3], b[3]) < 0 ? 1 : 0;
        long d3 = t - borrow;
        borrow = b1 | (Long.compareUnsigned(t, borrow) < 0 ? 1 : 0);
        if (borrow != 0) {
            // add m back
            long s0 = d0 + m[0];
            long c = Long.compareUnsigned(s0, d0) < 0 ? 1 : 0;
            long u = d1 + c;
            long c1 = Long.compareUnsigned(u, c) < 0 ? 1 : 0;
            long s1 = u + m[1];
            c = c1 | (Long.compareUnsigned(s1, u) < 0 ? 1 : 0);
            u = d2 + c;
            c1 = Long.compareUnsigned(u, c) < 0 ? 1 : 0;
            long s2 = u + m[2];
            c = c1 | (Long.compareUnsigned(s2, u) < 0 ? 1 : 0);
            d0 = s0;
            d1 = s1;
            d2 = s2;
            d3 = d3 + m[3] + c;
        }
        out[0] = d0;
        out[1] = d1;
        out[2] = d2;
        out[3] = d3;
    }

    /** out = -a. */
    public void neg(long[] a, long[] out) {
        if (isZero(a)) {
            out[0] = out[1] = out[2] = out[3] = 0;
            return;
        }
        sub(m, a, out); // m is not an element, but m - a with 0 < a < m is
    }

    /** out = 2a. */
    public void dbl(long[] a, long[] out) {
        add(a, a, out);
    }

    /** out = a·b (Montgomery product, CIOS). */
    public void mul(long[] a, long[] b, long[] out) {
        long a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3];
        long m0 = m[0], m1 = m[1], m2 = m[2], m3 = m[3];
        long t0 = 0, t1 = 0, t2 = 0, t3 = 0, t4;
        for (int i = 0; i < 4; i++) {
            long bi = b[i];
            // t += a * bi
            long lo = a0 * bi;
            long hi = umulh(a0, bi);
            lo += t0;
            hi += Long.compareUnsigned(lo, t0) < 0 ? 1 : 0;
            t0 = lo;
            long c = hi;

            lo = a1 * bi;
            hi = umulh(a1, bi);
            lo += t1;
            hi += Long.compareUnsigned(lo, t1) < 0 ? 1 : 0;
            lo += c;
            hi += Long.compareUnsigned(lo, c) < 0 ? 1 : 0;
            t1 = lo;
            c = hi;

            lo = a2 * bi;
            hi = umulh(a2, bi);
            lo += t2;
            hi += Long.compareUnsigned(lo, t2) < 0 ? 1 : 0;
            lo += c;
            hi += Long.compareUnsigned(lo, c) < 0 ? 1 : 0;
            t2 = lo;
            c = hi;

            lo = a3 * bi;
            hi = umulh(a3, bi);
            lo += t3;
            hi += Long.compareUnsigned(lo, t3) < 0 ? 1 : 0;
            lo += c;
            hi += Long.compareUnsigned(lo, c) < 0 ? 1 : 0;
            t3 = lo;
            t4 = hi; // t < 2m·2^64 < 2^319: t4 fits, no sixth limb

            // reduce: t = (t + q·m) / 2^64
            long q = t0 * inv;
            lo = q * m0;
            hi = umulh(q, m0);
            lo += t0;
            hi += Long.compareUnsigned(lo, t0) < 0 ? 1 : 0;
            c = hi;

            lo = q * m1;
            hi = umulh(q, m1);
            lo += t1;
            hi += Long.compareUnsigned(lo, t1) < 0 ? 1 : 0;
            lo += c;
            hi += Long.compareUnsigned(lo, c) < 0 ? 1 : 0;
            t0 = lo;
            c = hi;

            lo = q * m2;
            hi = umulh(q, m2);
            lo += t2;
            hi += Long.compareUnsigned(lo, t2) < 0 ? 1 : 0;
            lo += c;
            hi += Long.compareUnsigned(lo, c) < 0 ? 1 : 0;
            t1 = lo;
            c = hi;

            lo = q * m3;
            hi = umulh(q, m3);
            lo += t3;
            hi += Long.compareUnsigned(lo, t3) < 0 ? 1 : 0;
            lo += c;
            hi += Long.compareUnsigned(lo, c) < 0 ? 1 : 0;
            t2 = lo;
            t3 = t4 + hi; // below 2m < 2^255 overall: no carry out
        }
        out[0] = t0;
        out[1] = t1;
        out[2] = t2;
        out[3] = t3;
        subtractModulusIfNotBelow(out);
    }

    /** out = a². */
    public void square(long[] a, long[] out) {
        mul(a, a, out);
    }

    /** out = a^e for a non-negative exponent. */
    public void pow(long[] a, BigInteger e, long[] out) {
        long[] base = a.clone();
        long[] acc = one.clone();
        for (int i = e.bitLength() - 1; i >= 0; i--) {
            mul(acc, acc, acc);
            if (e.testBit(i)) {
                mul(acc, base, acc);
            }
        }
        copy(acc, out);
    }

    /** out = a^-1; a must not be zero. */
    public void inverse(long[] a, long[] out) {
        if (isZero(a)) {
            throw new ArithmeticException("zero has no inverse");
        }
        pow(a, minusTwo, out);
    }

    private void fromMontgomery(long[] a, long[] out) {
        long[] unit = {1, 0, 0, 0};
        mul(a, unit, out);
    }

    private void subtractModulusIfNotBelow(long[] a) {
        if (lessThanModulus(a)) {
            return;
        }
        long d0 = a[0] - m[0];
        long borrow = Long.compareUnsigned(a[0], m[0]) < 0 ? 1 : 0;
        long t = a[1] - m[1];
        long b1 = Long.compareUnsigned(a[1], m[1]) < 0 ? 1 : 0;
        long d1 = t - borrow;
        borrow = b1 | (Long.compareUnsigned(t, borrow) < 0 ? 1 : 0);
        t = a[2] - m[2];
        b1 = Long.compareUnsigned(a[2], m[2]) < 0 ? 1 : 0;
        long d2 = t - borrow;
        borrow = b1 | (Long.compareUnsigned(t, borrow) < 0 ? 1 : 0);
        a[0] = d0;
        a[1] = d1;
        a[2] = d2;
        a[3] = a[3] - m[3] - borrow;
    }

    /** The high 64 bits of the unsigned 128-bit product (Math.unsignedMultiplyHigh is Java 18). */
    private static long umulh(long x, long y) {
        return Math.multiplyHigh(x, y) + ((x >> 63) & y) + ((y >> 63) & x);
    }

    private static long[] limbs(BigInteger value) {
        long[] limbs = new long[4];
        for (int i = 0; i < 4; i++) {
            limbs[i] = value.shiftRight(64 * i).longValue();
        }
        return limbs;
    }

    @Override
    public String toString() {
        return "PrimeField(" + modulus + ")";
    }
}
