package io.wakurelay.rln.proof;

import com.fasterxml.jackson.databind.JsonNode;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.rln.RlnConfig.NullifierDerivation;
import io.wakurelay.rln.RlnVectors;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every case of vectors.json whose verdict the proof decides reaches it through {@link ProofVerifier}, with the
 * derivation the case's validator is configured with. Cases decided earlier (timestamp, epoch, root) carry proofs
 * that verify for what they were made, which is checked too.
 */
class ProofVerifierTest {
    private static final ProofVerifier VERIFIER = ProofVerifier.rlnV2();
    /** Decided before the proof step: their proofs are honest ones, for another time, epoch or root. */
    private static final Set<String> DECIDED_EARLIER = Set.of("invalid_timestamp", "timestamp_mismatch", "invalid_root");

    static ProofVerdict expectedVerdict(JsonNode c) {
        return switch (c.path("expected_metric_type").asText()) {
            case "valid", "spam" -> ProofVerdict.VALID;
            case "invalid_proof" -> ProofVerdict.INVALID_PROOF;
            case "proof_verification_error" -> ProofVerdict.PROOF_VERIFICATION_ERROR;
            default -> null;
        };
    }

    static NullifierDerivation derivation(JsonNode c) {
        return c.path("derivation").asText().equals("legacy") ? NullifierDerivation.LEGACY : NullifierDerivation.V038;
    }

    static ProofVerdict verify(JsonNode c) throws MalformedRateLimitProofException {
        Envelope envelope = RlnVectors.envelope(c);
        try {
            RateLimitProof proof = RateLimitProof.of(envelope.message());
            return VERIFIER.verify(proof, envelope.message(), derivation(c));
        } finally {
            envelope.release();
        }
    }

    @Test
    void everyCaseTheProofDecidesEndsAsTheVectorsSay() throws Exception {
        List<String> checked = new ArrayList<>();
        for (JsonNode c : RlnVectors.cases()) {
            ProofVerdict expected = expectedVerdict(c);
            if (expected == null) {
                continue;
            }
            assertThat(verify(c)).as("%s: %s", c.path("id").asText(), c.path("description").asText())
                    .isEqualTo(expected);
            assertThat(expected.label()).isIn(c.path("expected_metric_type").asText(), "valid");
            checked.add(c.path("id").asText());
        }
        assertThat(checked).hasSize(47).contains("A1", "A1-legacy", "R5-payload", "R6-A-infinity", "R6-C-both-flags",
                "R6-B-x-ge-p", "R7-y", "R9", "R9-legacy", "R10", "R11-nullifier", "R11-x", "R11-y", "S4-b");
    }

    @Test
    void theProofsOfCasesDecidedEarlierAreHonestOnes() throws Exception {
        for (JsonNode c : RlnVectors.cases()) {
            String id = c.path("id").asText();
            if (!DECIDED_EARLIER.contains(c.path("expected_metric_type").asText()) || id.equals("R1")) {
                continue;
            }
            assertThat(verify(c)).as(id).isEqualTo(ProofVerdict.VALID);
        }
    }

    @Test
    void anAbsentProofIsAProofOfZerosWhoseIdentifierIsForeign() throws Exception {
        JsonNode r1 = RlnVectors.casesById().get("R1");
        Envelope envelope = RlnVectors.envelope(r1);
        try {
            assertThat(envelope.message().hasRateLimitProof()).isFalse();
            RateLimitProof proof = RateLimitProof.of(envelope.message());
            assertThat(proof.epochBytes()).containsOnly(0);
            assertThat(proof.hasEpoch(0)).isTrue();
            assertThat(proof.checkFields()).isEqualTo(FieldCheck.FOREIGN_RLN_IDENTIFIER);
        } finally {
            envelope.release();
        }
    }

    @Test
    void garbageInField21IsADecodeError() {
        JsonNode r8 = RlnVectors.casesById().get("R8");
        assertThat(r8.path("expected_metric_type").asText()).isEqualTo("decode");
        Envelope envelope = RlnVectors.envelope(r8);
        try {
            assertThatThrownBy(() -> RateLimitProof.of(envelope.message()))
                    .isInstanceOf(MalformedRateLimitProofException.class).hasMessageContaining("truncated");
        } finally {
            envelope.release();
        }
    }

    @Test
    void theCheapChecksNameEachStricterCase() throws Exception {
        Map<String, FieldCheck> expected = Map.of("R10", FieldCheck.FOREIGN_RLN_IDENTIFIER,
                "R11-nullifier", FieldCheck.NON_CANONICAL_FIELD, "R11-x", FieldCheck.NON_CANONICAL_FIELD,
                "R11-y", FieldCheck.NON_CANONICAL_FIELD, "A1", FieldCheck.OK, "R6-B-x-ge-p", FieldCheck.OK);
        Map<String, JsonNode> cases = RlnVectors.casesById();
        for (var e : expected.entrySet()) {
            Envelope envelope = RlnVectors.envelope(cases.get(e.getKey()));
            try {
                assertThat(RateLimitProof.of(envelope.message()).checkFields()).as(e.getKey()).isEqualTo(e.getValue());
            } finally {
                envelope.release();
            }
        }
    }
}
