package io.wakurelay.rln.validation;

import io.wakurelay.protocol.Envelope;
import io.wakurelay.relay.validation.RelayValidator;
import io.wakurelay.relay.validation.Screen;
import io.wakurelay.relay.validation.Verdict;

import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * RLN's validation as the relay's validator (docs/adr/0085): the cheap checks where the message arrived, the proof
 * and the nullifier log on the relay's validation threads; every RLN outcome becomes gossipsub's verdict, with the
 * outcome's label as the reason (a reject costs the sender P₄, as nwaku's Reject does).
 */
final class RlnRelayValidator implements RelayValidator {
    private static final Set<String> REASONS = EnumSet.allOf(RlnOutcome.class).stream()
            .filter(o -> o.kind() == RlnOutcome.Kind.REJECT || o.kind() == RlnOutcome.Kind.IGNORE)
            .map(RlnOutcome::label).collect(Collectors.toUnmodifiableSet());

    private final RlnValidation validation;

    RlnRelayValidator(RlnValidation validation) {
        this.validation = validation;
    }

    @Override
    public Set<String> reasons() {
        return REASONS;
    }

    @Override
    public Screen screen(Envelope envelope) {
        RlnOutcome outcome = validation.screen(envelope.message(), envelope.pubsubTopic());
        return outcome == RlnOutcome.NEEDS_PROOF ? Screen.VERIFY : verdict(outcome);
    }

    @Override
    public Verdict verify(Envelope envelope) {
        return verdict(validation.verify(envelope.message(), envelope.pubsubTopic()));
    }

    private static Verdict verdict(RlnOutcome outcome) {
        return switch (outcome.kind()) {
            case ACCEPT -> Verdict.ACCEPT;
            case REJECT -> Verdict.reject(outcome.label());
            case IGNORE -> Verdict.ignore(outcome.label());
            case PENDING -> throw new IllegalStateException("a verification ends with a verdict, not " + outcome);
        };
    }
}
