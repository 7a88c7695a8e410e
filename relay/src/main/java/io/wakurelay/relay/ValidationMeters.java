package io.wakurelay.relay;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.wakurelay.protocol.LatencyBuckets;
import io.wakurelay.relay.validation.Screen;
import io.wakurelay.relay.validation.Verdict;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The meters of the validation stage (docs/metrics.md, "Relay validation"), registered when a validator is installed,
 * with every label value they can take: the verdicts, the copies' outcomes, and the validator's reasons and the
 * relay's own. A reason the validator did not declare is registered when it first comes (the validator's code chooses
 * it, never a peer).
 */
final class ValidationMeters {
    private final MeterRegistry registry;
    private final Map<String, Counter> screened = new ConcurrentHashMap<>();
    private final Map<String, Counter> verified = new ConcurrentHashMap<>();
    private final Map<String, Counter> rejected = new ConcurrentHashMap<>();
    private final Map<String, Counter> ignored = new ConcurrentHashMap<>();
    private final Map<PendingVerdicts.Copy, Counter> copies = new ConcurrentHashMap<>();
    private final Timer duration;

    ValidationMeters(MeterRegistry registry, Set<String> reasons) {
        this.registry = registry;
        for (String verdict : new String[]{"accept", "reject", "ignore", "verify"}) {
            screened.put(verdict, Counter.builder("waku.relay.validation.screened").tag("verdict", verdict)
                    .description("messages the validator's cheap checks decided, by verdict (verify: sent to verification)")
                    .register(registry));
            if (!verdict.equals("verify")) {
                verified.put(verdict, Counter.builder("waku.relay.validation.verified").tag("verdict", verdict)
                        .description("verifications ended, by verdict").register(registry));
            }
        }
        for (String reason : reasons) {
            if (!ValidationRoom.OWN_REASONS.contains(reason)) {
                counter(rejected, "waku.relay.validation.rejected", reason);
            }
            counter(ignored, "waku.relay.validation.ignored", reason);
        }
        for (PendingVerdicts.Copy copy : PendingVerdicts.Copy.values()) {
            copies.put(copy, Counter.builder("waku.relay.validation.copies").tag("outcome", copy.name().toLowerCase())
                    .description("copies of a message being validated: their senders wait for its verdict and are "
                            + "scored with it (waits), past the bound (unscored), or sent it before (repeated)")
                    .register(registry));
        }
        duration = Timer.builder("waku.relay.validation.duration")
                .description("time the validator's verify took for one message, on a validation thread")
                .serviceLevelObjectives(LatencyBuckets.between(Duration.ofMillis(1).dividedBy(10), Duration.ofSeconds(1)))
                .register(registry);
    }

    private Counter counter(Map<String, Counter> byReason, String name, String reason) {
        return byReason.computeIfAbsent(reason, r -> Counter.builder(name).tag("reason", r)
                .description(name.endsWith("rejected") ? "messages the validator rejected, by its reason"
                        : "messages not validated, or ignored by the validator, by reason")
                .register(registry));
    }

    void screened(Screen screen) {
        screened.get(screen instanceof Verdict v ? verdictLabel(v) : "verify").increment();
    }

    void verified(Verdict verdict, long nanos) {
        verified.get(verdictLabel(verdict)).increment();
        duration.record(nanos, TimeUnit.NANOSECONDS);
    }

    void judged(Verdict verdict) {
        if (verdict instanceof Verdict.Reject r) {
            counter(rejected, "waku.relay.validation.rejected", r.reason()).increment();
        } else if (verdict instanceof Verdict.Ignore i) {
            counter(ignored, "waku.relay.validation.ignored", i.reason()).increment();
        }
    }

    void copy(PendingVerdicts.Copy copy) {
        copies.get(copy).increment();
    }

    private static String verdictLabel(Verdict v) {
        return v instanceof Verdict.Accept ? "accept" : v instanceof Verdict.Reject ? "reject" : "ignore";
    }
}
