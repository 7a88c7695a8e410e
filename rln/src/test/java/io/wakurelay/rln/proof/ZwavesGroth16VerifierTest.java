package io.wakurelay.rln.proof;

import com.fasterxml.jackson.databind.JsonNode;
import io.wakurelay.rln.RlnVectors;
import io.wakurelay.rln.crypto.FieldElement;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The native backend: its encodings (a real proof verifies, a changed input does not) and several threads at once. */
class ZwavesGroth16VerifierTest {
    private static final Groth16Verifier BACKEND = ZwavesGroth16Verifier.create(VerifyingKey.rlnV2());

    /** A case's decoded proof and its public inputs. */
    private record Verification(String id, Groth16Proof proof, FieldElement[] inputs, boolean valid) {
    }

    private static Verification of(JsonNode c) throws Exception {
        var envelope = RlnVectors.envelope(c);
        try {
            RateLimitProof p = RateLimitProof.of(envelope.message());
            FieldElement en = FieldElement.fromLittleEndian(RlnVectors.hex(
                    c.path("inputs").path("external_nullifier_le_hex").asText()));
            FieldElement[] inputs = {p.fieldElement(5), p.fieldElement(2), p.fieldElement(6), p.fieldElement(4), en};
            return new Verification(c.path("id").asText(), Groth16Proof.decode(p.bytes(), 0), inputs,
                    c.path("expected_metric_type").asText().equals("valid"));
        } finally {
            envelope.release();
        }
    }

    private static List<Verification> verifications() throws Exception {
        List<Verification> list = new ArrayList<>();
        for (String id : new String[] {"A1", "A2", "A5", "S1-a", "A1-legacy", "R7-y", "R7-nullifier", "R6-A-flip-decodes"}) {
            list.add(of(RlnVectors.casesById().get(id)));
        }
        return list;
    }

    @Test
    void verifiesRealProofsAndRefusesChangedOnes() throws Exception {
        for (Verification v : verifications()) {
            assertThat(BACKEND.verify(v.proof, v.inputs)).as(v.id).isEqualTo(v.valid);
        }
        Verification a1 = of(RlnVectors.casesById().get("A1"));
        for (int i = 0; i < 5; i++) {
            FieldElement[] changed = a1.inputs.clone();
            changed[i] = changed[i].add(FieldElement.ONE);
            assertThat(BACKEND.verify(a1.proof, changed)).as("input %d + 1", i).isFalse();
        }
        assertThatThrownBy(() -> BACKEND.verify(a1.proof, new FieldElement[4]))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void givesEveryThreadTheRightVerdictAtOnce() throws Exception {
        List<Verification> verifications = verifications();
        int threads = 8;
        int rounds = 6;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int offset = t;
                results.add(pool.submit(() -> {
                    int done = 0;
                    for (int round = 0; round < rounds; round++) {
                        for (int i = 0; i < verifications.size(); i++) {
                            Verification v = verifications.get((i + offset) % verifications.size());
                            if (BACKEND.verify(v.proof, v.inputs) != v.valid) {
                                throw new AssertionError(v.id + " gave the wrong verdict on a thread of many");
                            }
                            done++;
                        }
                    }
                    return done;
                }));
            }
            int total = 0;
            for (Future<Integer> f : results) {
                total += f.get(120, TimeUnit.SECONDS);
            }
            assertThat(total).isEqualTo(threads * rounds * verifications.size());
        } finally {
            pool.shutdownNow();
        }
    }
}
