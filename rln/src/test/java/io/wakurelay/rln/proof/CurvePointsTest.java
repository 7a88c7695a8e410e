package io.wakurelay.rln.proof;

import io.wakurelay.rln.crypto.PrimeField;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Fp2 square roots, decompression and G2's subgroup check on random points. */
class CurvePointsTest {
    private static final BigInteger P = Fp2.FP.modulus();
    private static final BigInteger R = PrimeField.SCALAR.modulus();
    /** The twist's cofactor: #E'(Fp2) = r·(2p - r). */
    static final BigInteger G2_COFACTOR = P.shiftLeft(1).subtract(R);

    static void littleEndian(BigInteger value, byte[] out, int offset) {
        for (int i = 0; i < 32; i++) {
            out[offset + i] = value.shiftRight(8 * i).byteValue();
        }
    }

    static BigInteger randomBelowP(SplittableRandom random) {
        byte[] b = new byte[32];
        random.nextBytes(b);
        b[0] &= 0x3F;
        BigInteger v = new BigInteger(1, b);
        return v.compareTo(P) < 0 ? v : v.subtract(P);
    }

    /** A random point of the twist (not of G2 in general), or of G2 when multiplied by the cofactor. */
    static G2Point randomTwistPoint(SplittableRandom random) {
        while (true) {
            G2Point q = G2Point.decompressUnchecked(Fp2.of(randomBelowP(random), randomBelowP(random)), random.nextBoolean());
            if (q != null) {
                return q;
            }
        }
    }

    @Test
    void squareRootsInFp2AreRootsAndNonSquaresHaveNone() {
        SplittableRandom random = new SplittableRandom(11);
        int nonSquares = 0;
        for (int i = 0; i < 200; i++) {
            Fp2 a = Fp2.of(randomBelowP(random), i % 10 == 0 ? BigInteger.ZERO : randomBelowP(random));
            Fp2 square = new Fp2();
            Fp2.square(a, square);
            Fp2 root = Fp2.sqrt(square);
            assertThat(root).isNotNull();
            Fp2 negA = new Fp2();
            Fp2.neg(a, negA);
            assertThat(root.equal(a) || root.equal(negA)).as("sqrt(a²) is ±a").isTrue();
            Fp2 b = Fp2.of(randomBelowP(random), randomBelowP(random));
            Fp2 rootB = Fp2.sqrt(b);
            if (rootB == null) {
                nonSquares++;
            } else {
                Fp2 check = new Fp2();
                Fp2.square(rootB, check);
                assertThat(check.equal(b)).isTrue();
            }
        }
        assertThat(nonSquares).as("about half of Fp2 is not a square").isBetween(60, 140);
    }

    @Test
    void twistPointsOutsideTheSubgroupAreRefusedAndTheirCofactorMultiplesTaken() throws Exception {
        SplittableRandom random = new SplittableRandom(5);
        for (int i = 0; i < 5; i++) {
            G2Point q = randomTwistPoint(random);
            assertThat(q.isOnCurve()).isTrue();
            assertThat(q.isInSubgroupByOrder()).as("a random twist point is outside G2").isFalse();
            assertThat(q.isInSubgroup()).as("the endomorphism test agrees").isFalse();
            byte[] encoded = new byte[64];
            ArkworksEncoding.writeG2(q, encoded, 0);
            assertThatThrownBy(() -> ArkworksEncoding.readG2(encoded, 0))
                    .hasMessageContaining("not in the order-r subgroup");

            G2Point g = q.multiply(G2_COFACTOR);
            assertThat(g.isInSubgroupByOrder()).isTrue();
            assertThat(g.isInSubgroup()).isTrue();
            // ψ acts on G2 as multiplication by p
            assertThat(g.psi()).isEqualTo(g.multiply(P.mod(R)));
            assertThat(g.multiply(R.add(BigInteger.TWO))).isEqualTo(g.multiply(BigInteger.TWO));
            ArkworksEncoding.writeG2(g, encoded, 0);
            assertThat(ArkworksEncoding.readG2(encoded, 0)).isEqualTo(g);
            assertThat(G2Point.of(g.x(), g.y())).isEqualTo(g);
        }
    }

    @Test
    void g1PointsRoundTripWithEitherY() throws Exception {
        SplittableRandom random = new SplittableRandom(9);
        int points = 0;
        while (points < 50) {
            long[] x = Fp2.FP.fromBigInteger(randomBelowP(random));
            G1Point p;
            try {
                p = G1Point.decompress(x, random.nextBoolean());
            } catch (PointDecodingException e) {
                continue;
            }
            byte[] encoded = new byte[32];
            ArkworksEncoding.writeG1(p, encoded, 0);
            assertThat(ArkworksEncoding.readG1(encoded, 0)).isEqualTo(p);
            assertThat(G1Point.of(p.xValue(), p.yValue())).isEqualTo(p);
            assertThatThrownBy(() -> G1Point.of(p.xValue(), p.yValue().add(BigInteger.ONE).mod(P)))
                    .hasMessageContaining("not on the curve");
            points++;
        }
    }

    @Test
    void theEndomorphismTestAgreesWithTheOrderOnPointsOfSmallOrderComponents() {
        // q + g: in G2 only when q is; [r]q: in the cofactor part only (order dividing 2p - r), never in G2 unless O
        SplittableRandom random = new SplittableRandom(8);
        for (int i = 0; i < 5; i++) {
            G2Point q = randomTwistPoint(random);
            G2Point torsion = q.multiply(R);
            assertThat(torsion.isInfinity()).isFalse();
            assertThat(torsion.isInSubgroup()).isEqualTo(torsion.isInSubgroupByOrder()).isFalse();
        }
    }

    @Test
    void aPointOffTheTwistIsRefused() {
        SplittableRandom random = new SplittableRandom(1);
        G2Point q = randomTwistPoint(random).multiply(G2_COFACTOR);
        Fp2 y = q.y();
        Fp2.add(y, y, y);
        assertThatThrownBy(() -> G2Point.of(q.x(), y)).hasMessageContaining("not on the curve");
    }
}
