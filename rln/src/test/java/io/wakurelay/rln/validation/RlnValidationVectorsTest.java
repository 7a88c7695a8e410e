package io.wakurelay.rln.validation;

import com.fasterxml.jackson.databind.JsonNode;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.rln.RlnConfig;
import io.wakurelay.rln.RlnConfig.NullifierDerivation;
import io.wakurelay.rln.RlnVectors;
import io.wakurelay.rln.proof.ProofVerifier;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every case of the RLN test vectors (src/test/resources/rln/vectors.json, made with zerokit and the circuit nwaku
 * ships) through the validation, each from a fresh state (an empty nullifier log) but for the cases it names in
 * {@code preceded_by}, which run first at their own clock and must end as they say; each case at its {@code now_ns}
 * with its acceptable roots and its derivation, ending with its verdict and counted in its metric.
 */
class RlnValidationVectorsTest {
    private static final ProofVerifier VERIFIER = ProofVerifier.rlnV2();
    private static final Map<String, JsonNode> CASES = RlnVectors.casesById();

    @TestFactory
    Stream<DynamicTest> everyCaseEndsWithItsVerdictAndItsMetric() {
        return RlnVectors.cases().stream().map(c -> DynamicTest.dynamicTest(c.path("id").asText(), () -> {
            Harness harness = new Harness(c);
            for (JsonNode before : c.path("preceded_by")) {
                JsonNode earlier = CASES.get(before.asText());
                harness.runAndCheck(earlier);
            }
            harness.runAndCheck(c);
        }));
    }

    /** One validator's state across a case and the cases before it. */
    private static final class Harness {
        private final MeterRegistry registry = new SimpleMeterRegistry();
        private final AtomicLong clock = new AtomicLong();
        private final Set<String> roots = new HashSet<>();
        private final AtomicInteger unknownRoots = new AtomicInteger();
        private final RlnValidation validation;

        Harness(JsonNode c) {
            c.path("acceptable_roots").forEach(r -> roots.add(r.asText()));
            RlnConfig config = RlnConfig.builder().epochSizeSec(RlnVectors.vectors().path("epoch_sec").asLong())
                    .maxTimestampGap(Duration.ofSeconds(RlnVectors.vectors().path("max_timestamp_gap_sec").asLong()))
                    .derivation(NullifierDerivation.valueOf(c.path("derivation").asText().toUpperCase())).build();
            NullifierLog log = new NullifierLog(config.nullifiersPerEpoch(), config.epochSizeSec(), config.maxTimestampGap());
            AcceptableRoots acceptable = new AcceptableRoots() {
                @Override
                public boolean contains(byte[] root) {
                    return roots.contains(RlnVectors.hex(root));
                }

                @Override
                public void onUnknownRoot() {
                    unknownRoots.incrementAndGet();
                }
            };
            validation = new RlnValidation(config, acceptable, VERIFIER, clock::get, System::nanoTime, log,
                    new RlnMetrics(registry, List.of(RlnVectors.VECTORS_PUBSUB_TOPIC), log::size));
        }

        void runAndCheck(JsonNode c) {
            String id = c.path("id").asText();
            clock.set(Long.parseLong(c.path("now_ns").asText()));
            List<Double> before = counts();
            RlnOutcome outcome;
            Envelope envelope = RlnVectors.envelope(c);
            try {
                outcome = validation.screen(envelope.message(), envelope.pubsubTopic());
                if (outcome == RlnOutcome.NEEDS_PROOF) {
                    outcome = validation.verify(envelope.message(), envelope.pubsubTopic());
                }
            } finally {
                envelope.release();
            }
            String expected = c.path("expected").asText();
            assertThat(outcome.label()).as(id + ": outcome").isEqualTo(c.path("expected_metric_type").asText());
            assertThat(verdict(outcome)).as(id + ": verdict").isEqualTo(expected);
            List<Double> after = counts();
            List<Double> delta = new ArrayList<>();
            for (int i = 0; i < after.size(); i++) {
                delta.add(after.get(i) - before.get(i));
            }
            // [messages, invalid by type (4), valid, spam, proof_verification errors]
            String type = c.path("expected_metric_type").asText();
            assertThat(delta.get(0)).as(id + ": waku_rln_messages_total").isEqualTo(type.equals("decode") ? 0.0 : 1.0);
            assertThat(delta.subList(1, delta.size())).as(id + ": the one meter of its outcome counted once")
                    .isEqualTo(expectedDelta(type));
            // where the vectors expect this node to refuse what nwaku lets through, the refusal is counted as such
            String strict = id.startsWith("R10") ? "foreign_identifier" : id.startsWith("R11") ? "non_canonical" : null;
            for (String check : List.of("foreign_identifier", "non_canonical")) {
                assertThat(registry.get("waku.rln.strict.rejections").tag("check", check).counter().count())
                        .as(id + ": waku_rln_strict_rejections_total{check=" + check + "}")
                        .isEqualTo(check.equals(strict) ? 1.0 : 0.0);
            }
            if (type.equals("invalid_root")) {
                assertThat(unknownRoots.get()).as(id + ": the roots were asked to look again").isPositive();
            }
        }

        private static String verdict(RlnOutcome outcome) {
            return switch (outcome.kind()) {
                case ACCEPT -> "accept";
                case REJECT -> outcome == RlnOutcome.SPAM ? "spam" : "reject";
                case IGNORE, PENDING -> "ignore";
            };
        }

        private static List<Double> expectedDelta(String type) {
            List<String> order = List.of("invalid_timestamp", "timestamp_mismatch", "invalid_root", "invalid_proof",
                    "valid", "spam", "proof_verification_error");
            List<Double> delta = new ArrayList<>();
            for (String t : order) {
                delta.add(t.equals(type) ? 1.0 : 0.0);
            }
            return delta;
        }

        private List<Double> counts() {
            List<Double> counts = new ArrayList<>();
            counts.add(registry.get("waku.rln.messages").counter().count());
            for (String type : List.of("invalid_timestamp", "timestamp_mismatch", "invalid_root", "invalid_proof")) {
                counts.add(registry.get("waku.rln.invalid.messages").tag("type", type).counter().count());
            }
            counts.add(registry.get("waku.rln.valid.messages").tag("shard", RlnVectors.VECTORS_PUBSUB_TOPIC).counter().count());
            counts.add(registry.get("waku.rln.spam.messages").counter().count());
            counts.add(registry.get("waku.rln.errors").tag("type", "proof_verification").counter().count());
            return counts;
        }
    }
}
