package io.wakurelay.rln.validation;

import io.micrometer.core.instrument.MeterRegistry;
import io.wakurelay.rln.RlnConfig;
import io.wakurelay.rln.chain.MembershipRoots;
import io.wakurelay.rln.proof.ProofVerifier;
import io.wakurelay.relay.validation.RelayValidator;
import reactor.core.publisher.Mono;

import java.time.Duration;
import java.util.Collection;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * RLN relay on a node, as nwaku mounts it with {@code --rln-relay} and no membership of its own: the Groth16 backend,
 * the membership roots read from the chain, the nullifier log, and the {@link RlnValidation} the relay runs on every
 * message. {@link #start} fails fast, with one line, where a part cannot start (the native pairing on this platform,
 * the chain's id, the contract); it blocks while it reads the first root, so never call it on an event loop.
 */
public final class RlnRelay implements AutoCloseable {
    /**
     * nwaku's words when it cannot prove a message of its own: this node has no membership credentials (a prover is a
     * later step), so its REST publish answers this as nwaku does without a keystore, and lightpush v3 a message that
     * carries no proof ({@code OUT_OF_RLN_PROOF}).
     */
    public static final String NO_CREDENTIALS = "could not generate rln-v2 proof: identity credentials are not set";

    private final MembershipRoots roots;
    private final RlnMetrics metrics;
    private final RlnValidation validation;

    private RlnRelay(MembershipRoots roots, RlnMetrics metrics, RlnValidation validation) {
        this.roots = roots;
        this.metrics = metrics;
        this.validation = validation;
    }

    /**
     * Starts RLN for the relay of {@code topics} (the shard label of {@code waku_rln_valid_messages_total} takes these
     * values, and only these), with {@code wallClockNanos} as the clock timestamps are checked against.
     *
     * @throws io.wakurelay.rln.proof.Groth16BackendUnavailableException where the native pairing does not load
     * @throws io.wakurelay.rln.chain.ChainStartException when the chain cannot be used, naming the flag to look at
     */
    public static RlnRelay start(RlnConfig config, Collection<String> topics, MeterRegistry registry,
                                 LongSupplier wallClockNanos) {
        Objects.requireNonNull(config, "config");
        ProofVerifier verifier = ProofVerifier.rlnV2(); // first: a platform without the pairing stops before any I/O
        MembershipRoots roots = MembershipRoots.start(config.membershipRoots(), registry);
        NullifierLog log = new NullifierLog(config.nullifiersPerEpoch(), config.epochSizeSec(), config.maxTimestampGap());
        RlnMetrics metrics = new RlnMetrics(registry, topics, log::size);
        AcceptableRoots acceptable = new AcceptableRoots() {
            @Override
            public boolean contains(byte[] root) {
                return roots.contains(root);
            }

            @Override
            public void onUnknownRoot() {
                roots.onUnknownRoot();
            }
        };
        return new RlnRelay(roots, metrics, new RlnValidation(config, acceptable, verifier, wallClockNanos,
                System::nanoTime, log, metrics));
    }

    /** The checks the relay runs on each message. */
    public RlnValidation validation() {
        return validation;
    }

    /** The checks as the relay's validator, to give {@code Relay.start}. */
    public RelayValidator validator() {
        return new RlnRelayValidator(validation);
    }

    /** Whether proofs can be checked: at least one membership root is known. */
    public boolean ready() {
        return roots.ready();
    }

    /** "Ready", or why not: the "Rln Relay" line of {@code /health}. */
    public String health() {
        return roots.health();
    }

    /** Stops reading the chain; the meters are removed. */
    public Mono<Void> shutdown(Duration grace) {
        return roots.shutdown(grace).doFinally(s -> metrics.close());
    }

    @Override
    public void close() {
        roots.close();
        metrics.close();
    }
}
