package io.wakurelay.rln.validation;

import io.wakurelay.protocol.WakuMessageView;
import io.wakurelay.rln.RlnConfig;
import io.wakurelay.rln.proof.MalformedRateLimitProofException;
import io.wakurelay.rln.proof.ProofVerdict;
import io.wakurelay.rln.proof.ProofVerifier;
import io.wakurelay.rln.proof.RateLimitProof;
import io.wakurelay.rln.validation.RlnMetrics.StrictCheck;

import java.util.function.LongSupplier;

/**
 * RLN's validation of one message, in nwaku's order (waku/waku_rln_relay/rln_relay.nim {@code validateMessage}), split
 * where its cost changes: {@link #screen} makes the cheap checks (decode, timestamp, epoch, root, and this node's
 * stricter field checks: nanoseconds to microseconds, fit for an event loop); {@link #verify} the expensive one (the
 * signal's keccak and the Groth16 pairing: milliseconds) and then the nullifier log. The first check that fails decides
 * the outcome, and each outcome is counted in nwaku's meters once:
 * <ol>
 * <li>field 21 decodes as a RateLimitProof (an absent field is a proof of zeros) else {@link RlnOutcome#DECODE};</li>
 * <li>the timestamp is within {@code maxTimestampGap} of the clock, in whole seconds, else
 *     {@link RlnOutcome#INVALID_TIMESTAMP};</li>
 * <li>the proof's epoch field is the epoch of the timestamp, all 32 bytes, else {@link RlnOutcome#TIMESTAMP_MISMATCH};</li>
 * <li>the proof's root is acceptable, else {@link RlnOutcome#INVALID_ROOT} (and the roots are asked to look again);</li>
 * <li>stricter than nwaku: root, x, y and nullifier below r, else {@link RlnOutcome#PROOF_VERIFICATION_ERROR}; the
 *     Waku rln identifier in field 7, else {@link RlnOutcome#INVALID_PROOF};</li>
 * <li>the proof verifies, else {@link RlnOutcome#INVALID_PROOF}, or {@link RlnOutcome#PROOF_VERIFICATION_ERROR} when
 *     its points do not decode;</li>
 * <li>its nullifier is new in its epoch, else {@link RlnOutcome#SPAM}; a full log gives
 *     {@link RlnOutcome#NULLIFIER_LOG_FULL};</li>
 * <li>{@link RlnOutcome#VALID}, and the nullifier is logged.</li>
 * </ol>
 * Thread-safe: {@link #screen} runs on event loops, {@link #verify} on several validation threads at once.
 */
public final class RlnValidation {
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final AcceptableRoots roots;
    private final ProofVerifier verifier;
    private final RlnConfig.NullifierDerivation derivation;
    private final long epochNanos;
    private final long maxGapSeconds;
    private final LongSupplier wallClockNanos;
    private final LongSupplier nanoTime;
    private final NullifierLog log;
    private final RlnMetrics metrics;

    RlnValidation(RlnConfig config, AcceptableRoots roots, ProofVerifier verifier, LongSupplier wallClockNanos,
                  LongSupplier nanoTime, NullifierLog log, RlnMetrics metrics) {
        this.roots = roots;
        this.verifier = verifier;
        this.derivation = config.derivation();
        this.epochNanos = Math.multiplyExact(config.epochSizeSec(), NANOS_PER_SECOND);
        this.maxGapSeconds = config.maxTimestampGap().toSeconds();
        this.wallClockNanos = wallClockNanos;
        this.nanoTime = nanoTime;
        this.log = log;
        this.metrics = metrics;
    }

    /** The cheap checks: a final outcome, or {@link RlnOutcome#NEEDS_PROOF}. */
    public RlnOutcome screen(WakuMessageView message, String pubsubTopic) {
        RateLimitProof proof;
        try {
            proof = RateLimitProof.of(message);
        } catch (MalformedRateLimitProofException e) {
            return RlnOutcome.DECODE;
        }
        metrics.messageSeen();
        RlnOutcome outcome = cheapChecks(proof, message.timestamp());
        if (outcome != RlnOutcome.NEEDS_PROOF) {
            metrics.outcome(outcome, pubsubTopic);
        }
        return outcome;
    }

    private RlnOutcome cheapChecks(RateLimitProof proof, long timestamp) {
        long now = wallClockNanos.getAsLong();
        long gap;
        try {
            gap = Math.abs(Math.subtractExact(now, timestamp));
        } catch (ArithmeticException e) {
            return RlnOutcome.INVALID_TIMESTAMP; // a timestamp ~292 years away
        }
        if (gap < 0 || gap / NANOS_PER_SECOND > maxGapSeconds) { // nwaku truncates the gap to whole seconds
            return RlnOutcome.INVALID_TIMESTAMP;
        }
        if (!proof.hasEpoch(Math.floorDiv(timestamp, epochNanos))) {
            return RlnOutcome.TIMESTAMP_MISMATCH;
        }
        if (!roots.contains(proof.merkleRoot())) {
            roots.onUnknownRoot();
            return RlnOutcome.INVALID_ROOT;
        }
        return switch (proof.checkFields()) {
            case OK -> RlnOutcome.NEEDS_PROOF;
            case NON_CANONICAL_FIELD -> {
                metrics.strict(StrictCheck.NON_CANONICAL);
                yield RlnOutcome.PROOF_VERIFICATION_ERROR;
            }
            case FOREIGN_RLN_IDENTIFIER -> {
                metrics.strict(StrictCheck.FOREIGN_IDENTIFIER);
                yield RlnOutcome.INVALID_PROOF;
            }
            case NOT_AN_EPOCH -> RlnOutcome.TIMESTAMP_MISMATCH; // hasEpoch compared all 32 bytes already
        };
    }

    /**
     * The proof of a message {@link #screen} passed, then the nullifier log: a final outcome. The message's buffers
     * must stay retained until this returns.
     */
    public RlnOutcome verify(WakuMessageView message, String pubsubTopic) {
        RateLimitProof proof;
        try {
            proof = RateLimitProof.of(message); // 320 bytes read again: cheaper than carrying them from the screen
        } catch (MalformedRateLimitProofException e) {
            return RlnOutcome.DECODE;
        }
        long start = nanoTime.getAsLong();
        ProofVerdict verdict = verifier.verify(proof, message, derivation);
        metrics.verified(nanoTime.getAsLong() - start);
        RlnOutcome outcome = switch (verdict) {
            case INVALID_PROOF -> RlnOutcome.INVALID_PROOF;
            case PROOF_VERIFICATION_ERROR -> RlnOutcome.PROOF_VERIFICATION_ERROR;
            case VALID -> switch (log.record(proof.epoch(), proof.nullifier(), wallClockNanos.getAsLong())) {
                case LOGGED -> RlnOutcome.VALID;
                case SEEN -> RlnOutcome.SPAM;
                case FULL -> RlnOutcome.NULLIFIER_LOG_FULL;
            };
        };
        metrics.outcome(outcome, pubsubTopic);
        return outcome;
    }
}
