package io.wakurelay.rln.crypto;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/** The long-limb Montgomery arithmetic of both BN254 fields against BigInteger's, on random and edge values. */
class PrimeFieldTest {

    private static BigInteger random(SplittableRandom random, BigInteger m) {
        return switch (random.nextInt(8)) {
            case 0 -> BigInteger.ZERO;
            case 1 -> BigInteger.ONE;
            case 2 -> m.subtract(BigInteger.ONE);
            case 3 -> m.subtract(BigInteger.TWO);
            default -> {
                byte[] b = new byte[32];
                random.nextBytes(b);
                yield new BigInteger(1, b).mod(m);
            }
        };
    }

    @Test
    void agreesWithBigIntegerInBothFields() {
        for (PrimeField f : new PrimeField[] {PrimeField.SCALAR, PrimeField.BASE}) {
            BigInteger m = f.modulus();
            SplittableRandom random = new SplittableRandom(17);
            long[] out = new long[4];
            for (int i = 0; i < 5_000; i++) {
                BigInteger a = random(random, m);
                BigInteger b = random(random, m);
                long[] x = f.fromBigInteger(a);
                long[] y = f.fromBigInteger(b);
                assertThat(f.toBigInteger(x)).isEqualTo(a);
                f.add(x, y, out);
                assertThat(f.toBigInteger(out)).as("%s + %s", a, b).isEqualTo(a.add(b).mod(m));
                f.sub(x, y, out);
                assertThat(f.toBigInteger(out)).as("%s - %s", a, b).isEqualTo(a.subtract(b).mod(m));
                f.mul(x, y, out);
                assertThat(f.toBigInteger(out)).as("%s * %s", a, b).isEqualTo(a.multiply(b).mod(m));
                f.neg(x, out);
                assertThat(f.toBigInteger(out)).isEqualTo(a.negate().mod(m));
                assertThat(Integer.signum(f.compare(x, y))).isEqualTo(a.compareTo(b));
                if (a.signum() != 0 && i % 50 == 0) {
                    f.inverse(x, out);
                    assertThat(f.toBigInteger(out)).isEqualTo(a.modInverse(m));
                }
            }
        }
    }

    @Test
    void readsAndWritesCanonicalEncodingsAndRefusesTheOthers() {
        for (PrimeField f : new PrimeField[] {PrimeField.SCALAR, PrimeField.BASE}) {
            BigInteger m = f.modulus();
            SplittableRandom random = new SplittableRandom(23);
            for (int i = 0; i < 1_000; i++) {
                BigInteger a = random(random, m);
                long[] x = f.fromBigInteger(a);
                byte[] le = new byte[32];
                byte[] be = new byte[32];
                f.writeLittleEndian(x, le, 0);
                f.writeBigEndian(x, be, 0);
                assertThat(new BigInteger(1, be)).isEqualTo(a);
                long[] back = new long[4];
                assertThat(f.readLittleEndian(le, 0, back)).isTrue();
                assertThat(f.equal(back, x)).isTrue();
                assertThat(f.readBigEndian(be, 0, back)).isTrue();
                assertThat(f.equal(back, x)).isTrue();
                ByteBuf buf = Unpooled.directBuffer(40).writeZero(3).writeBytes(le);
                try {
                    assertThat(f.readLittleEndian(buf, 3, back)).isTrue();
                    assertThat(f.equal(back, x)).isTrue();
                } finally {
                    buf.release();
                }
                // a + m, where it still fits in 256 bits, is the same value's non-canonical encoding
                BigInteger aPlusM = a.add(m);
                byte[] nonCanonical = new byte[32];
                for (int j = 0; j < 32; j++) {
                    nonCanonical[j] = aPlusM.shiftRight(8 * j).byteValue();
                }
                assertThat(f.readLittleEndian(nonCanonical, 0, back)).isFalse();
                assertThat(f.isCanonicalLittleEndian(nonCanonical, 0)).isFalse();
                assertThat(f.isCanonicalLittleEndian(le, 0)).isTrue();
            }
        }
    }
}
