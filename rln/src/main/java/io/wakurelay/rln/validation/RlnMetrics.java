package io.wakurelay.rln.validation;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;

/**
 * The meters of RLN's validation, under nwaku's names where nwaku has them (waku/waku_rln_relay/protocol_metrics.nim):
 * {@code waku_rln_messages_total}, {@code waku_rln_invalid_messages_total{type}}, {@code waku_rln_valid_messages_total{shard}}
 * (nwaku labels it with the pubsub topic), {@code waku_rln_spam_messages_total}, {@code waku_rln_errors_total{type}},
 * {@code waku_rln_proof_verification_total} and the gauge {@code waku_rln_proof_verification_duration_seconds}; and ours:
 * the nullifier log's size and refusals, and the checks where this node is stricter than nwaku. Every label value is
 * registered at start; the shard label takes only this node's own topics (the relay validates nothing else).
 */
final class RlnMetrics implements AutoCloseable {
    /** The checks where this node refuses what nwaku lets through (docs/rln.md). */
    enum StrictCheck {
        NON_CANONICAL("non_canonical"), FOREIGN_IDENTIFIER("foreign_identifier");

        final String label;

        StrictCheck(String label) {
            this.label = label;
        }
    }

    private final MeterRegistry registry;
    private final List<Meter> meters = new ArrayList<>();
    private final Counter messages;
    private final Map<RlnOutcome, Counter> invalid = new EnumMap<>(RlnOutcome.class);
    private final Counter spam;
    private final Counter proofVerificationErrors;
    private final Counter verifications;
    private final Counter logFull;
    private final Map<StrictCheck, Counter> strict = new EnumMap<>(StrictCheck.class);
    private final Map<String, Counter> valid = new ConcurrentHashMap<>();
    private final AtomicLong lastVerificationNanos = new AtomicLong();

    RlnMetrics(MeterRegistry registry, Iterable<String> topics, IntSupplier nullifiersLogged) {
        this.registry = registry;
        messages = add(Counter.builder("waku.rln.messages").description("messages seen by the rln relay")
                .register(registry));
        for (RlnOutcome o : List.of(RlnOutcome.INVALID_TIMESTAMP, RlnOutcome.TIMESTAMP_MISMATCH,
                RlnOutcome.INVALID_ROOT, RlnOutcome.INVALID_PROOF)) {
            invalid.put(o, add(Counter.builder("waku.rln.invalid.messages").tag("type", o.label())
                    .description("invalid messages detected, by nwaku's type").register(registry)));
        }
        spam = add(Counter.builder("waku.rln.spam.messages").description("double signals detected")
                .register(registry));
        proofVerificationErrors = add(Counter.builder("waku.rln.errors").tag("type", "proof_verification")
                .description("errors of the rln relay: proofs that cannot be read").register(registry));
        verifications = add(Counter.builder("waku.rln.proof.verification")
                .description("proofs verified").register(registry));
        add(Gauge.builder("waku.rln.proof.verification.duration", lastVerificationNanos, n -> n.get() / 1e9)
                .baseUnit("seconds").description("time the last proof verification took").register(registry));
        // held strongly: Micrometer holds a gauge's object weakly, and the caller's supplier may be made for it alone
        add(Gauge.builder("waku.rln.nullifier.log.entries", nullifiersLogged, IntSupplier::getAsInt)
                .strongReference(true).description("nullifiers logged over the epochs a valid timestamp can map to").register(registry));
        logFull = add(Counter.builder("waku.rln.nullifier.log.full")
                .description("valid messages dropped without penalty because their epoch's nullifier log was full")
                .register(registry));
        for (StrictCheck check : StrictCheck.values()) {
            strict.put(check, add(Counter.builder("waku.rln.strict.rejections").tag("check", check.label)
                    .description("messages refused by a check nwaku does not make").register(registry)));
        }
        topics.forEach(this::validCounter);
    }

    void messageSeen() {
        messages.increment();
    }

    /** Counts a final outcome in nwaku's meters. */
    void outcome(RlnOutcome outcome, String pubsubTopic) {
        switch (outcome) {
            case INVALID_TIMESTAMP, TIMESTAMP_MISMATCH, INVALID_ROOT, INVALID_PROOF -> invalid.get(outcome).increment();
            case PROOF_VERIFICATION_ERROR -> proofVerificationErrors.increment();
            case SPAM -> spam.increment();
            case NULLIFIER_LOG_FULL -> logFull.increment();
            case VALID -> validCounter(pubsubTopic).increment();
            case DECODE, NEEDS_PROOF -> { }
        }
    }

    void strict(StrictCheck check) {
        strict.get(check).increment();
    }

    void verified(long nanos) {
        verifications.increment();
        lastVerificationNanos.set(nanos);
    }

    private Counter validCounter(String topic) {
        return valid.computeIfAbsent(topic, t -> add(Counter.builder("waku.rln.valid.messages").tag("shard", t)
                .description("valid messages, by pubsub topic").register(registry)));
    }

    private <M extends Meter> M add(M meter) {
        synchronized (meters) {
            meters.add(meter);
        }
        return meter;
    }

    @Override
    public void close() {
        synchronized (meters) {
            meters.forEach(registry::remove);
            meters.clear();
        }
    }
}
