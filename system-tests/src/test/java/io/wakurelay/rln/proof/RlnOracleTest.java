package io.wakurelay.rln.proof;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.rln.RlnConfig.NullifierDerivation;
import io.wakurelay.rln.RlnVectors;
import io.wakurelay.rln.crypto.ExternalNullifier;
import io.wakurelay.rln.crypto.FieldElement;
import io.wakurelay.rln.crypto.HashToField;
import io.wakurelay.rln.crypto.Poseidon;
import io.wakurelay.rln.crypto.PrimeField;
import io.wakurelay.testkit.JsPeer;
import java.io.InputStream;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The rln module's crypto against libraries that share no code with it (interop/rln-oracle/oracle.mjs): Poseidon
 * against poseidon-lite, point decompression and the G2 subgroup test against @noble/curves' BN254 fields and its own
 * subgroup test, Groth16 verdicts against snarkjs; on seeded random inputs and the vectors' proofs.
 */
@Tag("process")
class RlnOracleTest {
    private static final Duration CALL = Duration.ofSeconds(120);
    private static final BigInteger R = PrimeField.SCALAR.modulus();
    private static final BigInteger P = PrimeField.BASE.modulus();
    private static final BigInteger G2_COFACTOR = P.shiftLeft(1).subtract(R);
    private static JsPeer oracle;

    @BeforeAll
    static void start() {
        oracle = JsPeer.start(JsPeer.Script.RLN_ORACLE, "--timeout-s", "300");
    }

    @AfterAll
    static void stop() {
        if (oracle != null) {
            oracle.close();
        }
    }

    private static BigInteger random(SplittableRandom random, BigInteger below) {
        byte[] b = new byte[32];
        random.nextBytes(b);
        return new BigInteger(1, b).mod(below);
    }

    @Test
    void poseidonAgreesWithPoseidonLite() {
        SplittableRandom random = new SplittableRandom(40);
        List<List<String>> inputs = new ArrayList<>();
        List<FieldElement> ours = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            int arity = 1 + i % 2;
            List<FieldElement> in = new ArrayList<>();
            for (int j = 0; j < arity; j++) {
                BigInteger v = switch (random.nextInt(10)) {
                    case 0 -> BigInteger.ZERO;
                    case 1 -> R.subtract(BigInteger.ONE);
                    default -> random(random, R);
                };
                in.add(FieldElement.of(v));
            }
            inputs.add(in.stream().map(FieldElement::toString).toList());
            ours.add(arity == 1 ? Poseidon.hash(in.get(0)) : Poseidon.hash(in.get(0), in.get(1)));
        }
        JsonNode outputs = oracle.call("poseidon", Map.of("inputs", inputs), CALL).path("outputs");
        for (int i = 0; i < ours.size(); i++) {
            assertThat(outputs.get(i).asText()).as("Poseidon%s", inputs.get(i)).isEqualTo(ours.get(i).toString());
        }
    }

    /** One point asked of the oracle and what we make of the same bytes. */
    private record Asked(Map<String, Object> request, byte[] encoded, boolean g2) {
    }

    @Test
    void decompressionAndTheSubgroupTestAgreeWithNoble() throws Exception {
        SplittableRandom random = new SplittableRandom(41);
        List<Asked> asked = new ArrayList<>();
        for (int i = 0; i < 150; i++) { // random G1 x: about half are not the x of a curve point
            BigInteger x = random(random, P);
            boolean larger = random.nextBoolean();
            byte[] encoded = littleEndian(x, 32);
            encoded[31] |= (byte) (larger ? 0x80 : 0);
            asked.add(new Asked(Map.of("group", "g1", "x", List.of(x.toString()), "larger", larger), encoded, false));
        }
        for (int i = 0; i < 60; i++) { // random G2 x: off the twist, or on it and (almost surely) outside G2
            BigInteger c0 = random(random, P);
            BigInteger c1 = random(random, P);
            asked.add(g2(c0, c1, random.nextBoolean()));
        }
        for (int i = 0; i < 12; i++) { // points of G2: a twist point times the cofactor
            G2Point q;
            do {
                q = G2Point.decompressUnchecked(Fp2.of(random(random, P), random(random, P)), random.nextBoolean());
            } while (q == null);
            G2Point g = q.multiply(G2_COFACTOR);
            asked.add(g2(g.x().c0Value(), g.x().c1Value(), g.yIsLarger()));
        }
        List<Map<String, Object>> requests = asked.stream().map(Asked::request).toList();
        JsonNode answers = oracle.call("decompress", Map.of("points", requests), CALL).path("points");
        int inSubgroup = 0;
        for (int i = 0; i < asked.size(); i++) {
            Asked a = asked.get(i);
            JsonNode noble = answers.get(i);
            String what = a.request().toString();
            if (!a.g2()) {
                G1Point ours = decodeG1(a.encoded());
                assertThat(ours != null).as("on the curve: %s", what).isEqualTo(noble.path("onCurve").asBoolean());
                if (ours != null) {
                    assertThat(ours.yValue().toString()).as(what).isEqualTo(noble.path("y").get(0).asText());
                }
                continue;
            }
            Fp2 x = Fp2.of(new BigInteger((String) ((List<?>) a.request().get("x")).get(0)),
                    new BigInteger((String) ((List<?>) a.request().get("x")).get(1)));
            G2Point unchecked = G2Point.decompressUnchecked(x, (Boolean) a.request().get("larger"));
            assertThat(unchecked != null).as("on the twist: %s", what).isEqualTo(noble.path("onCurve").asBoolean());
            if (unchecked == null) {
                continue;
            }
            assertThat(unchecked.y().c0Value().toString()).as(what).isEqualTo(noble.path("y").get(0).asText());
            assertThat(unchecked.y().c1Value().toString()).as(what).isEqualTo(noble.path("y").get(1).asText());
            boolean nobleInG2 = noble.path("torsionFree").asBoolean();
            assertThat(noble.path("orderR").asBoolean()).as("noble's two subgroup tests agree").isEqualTo(nobleInG2);
            assertThat(unchecked.isInSubgroup()).as("in G2: %s", what).isEqualTo(nobleInG2);
            boolean decodes;
            try {
                ArkworksEncoding.readG2(a.encoded(), 0);
                decodes = true;
            } catch (PointDecodingException e) {
                decodes = false;
            }
            assertThat(decodes).as("decodes: %s", what).isEqualTo(nobleInG2);
            inSubgroup += nobleInG2 ? 1 : 0;
        }
        assertThat(inSubgroup).isGreaterThanOrEqualTo(12);
    }

    private static Asked g2(BigInteger c0, BigInteger c1, boolean larger) {
        byte[] encoded = new byte[64];
        System.arraycopy(littleEndian(c0, 32), 0, encoded, 0, 32);
        System.arraycopy(littleEndian(c1, 32), 0, encoded, 32, 32);
        encoded[63] |= (byte) (larger ? 0x80 : 0);
        return new Asked(Map.of("group", "g2", "x", List.of(c0.toString(), c1.toString()), "larger", larger), encoded,
                true);
    }

    private static G1Point decodeG1(byte[] encoded) {
        try {
            return ArkworksEncoding.readG1(encoded, 0);
        } catch (PointDecodingException e) {
            return null;
        }
    }

    /** A case's proof in snarkjs' format with its public signals, and our two verdicts. */
    private record Verification(String id, Map<String, Object> snarkjs, boolean pairing, Boolean facade) {
    }

    @Test
    void groth16VerdictsAgreeWithSnarkjs() throws Exception {
        ProofVerifier facade = ProofVerifier.rlnV2();
        Groth16Verifier backend = ZwavesGroth16Verifier.create(VerifyingKey.rlnV2());
        SplittableRandom random = new SplittableRandom(42);
        List<Verification> verifications = new ArrayList<>();
        for (JsonNode c : RlnVectors.cases()) {
            Envelope envelope = RlnVectors.envelope(c);
            try {
                if (!envelope.message().hasRateLimitProof() || c.path("expected_metric_type").asText().equals("decode")) {
                    continue;
                }
                RateLimitProof proof = RateLimitProof.of(envelope.message());
                Groth16Proof points;
                try {
                    points = Groth16Proof.decode(proof.bytes(), 0);
                } catch (PointDecodingException e) {
                    continue; // snarkjs has no encoding of its own to disagree about
                }
                if (points.hasPointAtInfinity() || proof.checkFields() == FieldCheck.NON_CANONICAL_FIELD) {
                    continue;
                }
                NullifierDerivation derivation = c.path("derivation").asText().equals("legacy")
                        ? NullifierDerivation.LEGACY : NullifierDerivation.V038;
                FieldElement[] inputs = {proof.fieldElement(5), proof.fieldElement(2), proof.fieldElement(6),
                    HashToField.signal(envelope.message()),
                    ExternalNullifier.derive(proof.epochBytes(), proof.rlnIdentifier(), derivation)};
                String id = c.path("id").asText();
                boolean fieldsOk = proof.checkFields() == FieldCheck.OK;
                Boolean facadeVerdict = fieldsOk
                        ? facade.verify(proof, envelope.message(), derivation) == ProofVerdict.VALID : null;
                verifications.add(new Verification(id, snarkjs(points, inputs), backend.verify(points, inputs),
                        facadeVerdict));
                if (c.path("expected_metric_type").asText().equals("valid") && random.nextInt(4) == 0) {
                    int which = random.nextInt(inputs.length);
                    FieldElement[] changed = inputs.clone();
                    changed[which] = FieldElement.of(random(random, R));
                    verifications.add(new Verification(id + " with input " + which + " random",
                            snarkjs(points, changed), backend.verify(points, changed), null));
                }
            } finally {
                envelope.release();
            }
        }
        JsonNode vk;
        try (InputStream in = VerifyingKey.class.getResourceAsStream(VerifyingKey.RLN_V2_RESOURCE)) {
            vk = new ObjectMapper().readTree(in);
        }
        JsonNode verdicts = oracle.call("groth16", Map.of("vk", vk,
                "cases", verifications.stream().map(Verification::snarkjs).toList()), CALL).path("verdicts");
        int valid = 0;
        for (int i = 0; i < verifications.size(); i++) {
            Verification v = verifications.get(i);
            boolean snarkjs = verdicts.get(i).asBoolean();
            assertThat(v.pairing()).as("zwaves on %s", v.id()).isEqualTo(snarkjs);
            if (v.facade() != null) {
                assertThat(v.facade()).as("ProofVerifier on %s", v.id()).isEqualTo(snarkjs);
            }
            valid += snarkjs ? 1 : 0;
        }
        assertThat(verifications.size()).isGreaterThan(45);
        assertThat(valid).as("the honest proofs, and R10 under its own identifier").isGreaterThan(30);
        assertThat(valid).isLessThan(verifications.size() - 8);
    }

    private static Map<String, Object> snarkjs(Groth16Proof proof, FieldElement[] inputs) {
        return Map.of(
                "proof", Map.of(
                        "pi_a", List.of(proof.a.xValue().toString(), proof.a.yValue().toString(), "1"),
                        "pi_b", List.of(
                                List.of(proof.b.x().c0Value().toString(), proof.b.x().c1Value().toString()),
                                List.of(proof.b.y().c0Value().toString(), proof.b.y().c1Value().toString()),
                                List.of("1", "0")),
                        "pi_c", List.of(proof.c.xValue().toString(), proof.c.yValue().toString(), "1")),
                "publicSignals", java.util.Arrays.stream(inputs).map(FieldElement::toString).toList());
    }

    private static byte[] littleEndian(BigInteger value, int length) {
        byte[] out = new byte[length];
        for (int i = 0; i < length; i++) {
            out[i] = value.shiftRight(8 * i).byteValue();
        }
        return out;
    }
}
