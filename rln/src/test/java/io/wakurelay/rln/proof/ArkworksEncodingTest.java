package io.wakurelay.rln.proof;

import com.fasterxml.jackson.databind.JsonNode;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.rln.RlnVectors;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The 128-byte proof's points: each R6 case fails where its description says, every honest proof round-trips. */
class ArkworksEncodingTest {

    private static byte[] proofBytes(JsonNode c) throws MalformedRateLimitProofException {
        Envelope envelope = RlnVectors.envelope(c);
        try {
            return RateLimitProof.of(envelope.message()).proof();
        } finally {
            envelope.release();
        }
    }

    @Test
    void everyHonestProofDecodesAndEncodesToTheSameBytes() throws Exception {
        int proofs = 0;
        for (JsonNode c : RlnVectors.cases()) {
            String id = c.path("id").asText();
            if (id.startsWith("R6") || id.equals("R1") || id.equals("R8")) {
                continue;
            }
            byte[] bytes = proofBytes(c);
            Groth16Proof proof = Groth16Proof.decode(bytes, 0);
            assertThat(proof.hasPointAtInfinity()).as(id).isFalse();
            assertThat(proof.encode()).as(id).isEqualTo(bytes);
            proofs++;
        }
        assertThat(proofs).isEqualTo(45);
    }

    @Test
    void eachFlippedProofFailsWhereItsCaseSays() throws Exception {
        Map<String, JsonNode> cases = RlnVectors.casesById();
        Map<String, String> undecodable = Map.of(
                "R6-A-flip-undecodable", "G1 x is not the x of a curve point",
                "R6-B-flip", "G2",
                "R6-C-flip-undecodable", "G1 x is not the x of a curve point",
                "R6-C-both-flags", "G1 point with both flags set",
                "R6-B-x-ge-p", "G2 x.c0 not below p");
        for (var e : undecodable.entrySet()) {
            byte[] bytes = proofBytes(cases.get(e.getKey()));
            assertThatThrownBy(() -> Groth16Proof.decode(bytes, 0)).as(e.getKey())
                    .isInstanceOf(PointDecodingException.class).hasMessageContaining(e.getValue());
        }
        for (String id : new String[] {"R6-A-flip-decodes", "R6-C-flip-decodes"}) {
            Groth16Proof proof = Groth16Proof.decode(proofBytes(cases.get(id)), 0);
            assertThat(proof.hasPointAtInfinity()).as(id).isFalse();
        }
        Groth16Proof infinity = Groth16Proof.decode(proofBytes(cases.get("R6-A-infinity")), 0);
        assertThat(infinity.a.isInfinity()).isTrue();
        assertThat(infinity.hasPointAtInfinity()).isTrue();
    }

    @Test
    void theFlipInBLeavesTheTwistOrItsSubgroup() throws Exception {
        byte[] bytes = proofBytes(RlnVectors.casesById().get("R6-B-flip"));
        byte[] flags = bytes.clone();
        assertThatThrownBy(() -> ArkworksEncoding.readG2(flags, 32)).isInstanceOf(PointDecodingException.class)
                .hasMessageMatching("G2 (x is not the x of a curve point|point not in the order-r subgroup)");
    }

    @Test
    void aCoordinateAtOrAboveP_WithTheInfinityFlag_IsStillRefused() {
        byte[] bytes = new byte[32];
        CurvePointsTest.littleEndian(Fp2.FP.modulus(), bytes, 0); // p itself, no flags (p < 2^254)
        assertThatThrownBy(() -> ArkworksEncoding.readG1(bytes, 0)).hasMessageContaining("not below p");
        bytes[31] |= 0x40;
        assertThatThrownBy(() -> ArkworksEncoding.readG1(bytes, 0)).hasMessageContaining("not below p");
    }

    @Test
    void theInfinityFlagWithAnyXBelowPIsThePointAtInfinity() throws Exception {
        byte[] bytes = new byte[64];
        bytes[5] = 7;
        bytes[63] = 0x40;
        assertThat(ArkworksEncoding.readG2(bytes, 0).isInfinity()).isTrue();
        byte[] g1 = new byte[32];
        g1[31] = 0x40;
        assertThat(ArkworksEncoding.readG1(g1, 0).isInfinity()).isTrue();
    }
}
