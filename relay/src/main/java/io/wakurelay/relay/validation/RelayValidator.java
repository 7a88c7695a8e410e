package io.wakurelay.relay.validation;

import io.wakurelay.protocol.Envelope;

import java.util.Set;

/**
 * A check the relay makes of every message before it forwards it, delivers it locally or archives it, beyond the
 * rules of the message format (RLN's rate-limit proofs, RFC 17): gossipsub's validator, in two stages.
 * {@link #screen} runs where the message arrived, on a connection's event loop (or on the publisher's thread for this
 * node's own message), and decides what it can decide cheaply; a message it cannot decide there it sends to
 * {@link #verify}, which the relay runs on validation threads of its own, within bounds ({@link ValidationConfig}).
 * What the relay does with each verdict is gossipsub's: an accepted message is forwarded, cached for IWANT and handed
 * to the local consumer; a rejected one costs its sender (P₄), and its later copies too; an ignored one is dropped
 * without cost to anyone. docs/adr/0085-asynchronous-validation.md has the design.
 *
 * <p>The relay installs one validator, given at its start ({@code Relay.start}); without one the receive path is
 * what it is without validation. A validator never blocks, never keeps the envelope beyond the call it gets it in (it
 * copies what it keeps: a nullifier, a root), and guards its own state: {@link #verify} runs for several messages at
 * once, and the verdicts come back in any order. An exception from either method is the validator's fault, not the
 * sender's: the message is ignored ({@code validator_error}) and logged.
 */
public interface RelayValidator {
    /**
     * Every reason this validator's rejections and ignores may give (each a lower-case metric label value,
     * {@code [a-z][a-z0-9_]*}): the relay registers their series at start, so that a dashboard reads 0 rather than no
     * data. A verdict with another reason is counted all the same.
     */
    Set<String> reasons();

    /**
     * The cheap checks, on the thread the message arrived on: a {@link Verdict}, or {@link Screen#VERIFY} to have
     * {@link #verify} run on the relay's validation threads. Microseconds, never a wait.
     */
    Screen screen(Envelope envelope);

    /**
     * The expensive check (a proof: milliseconds) of a message {@link #screen} sent here, on one of the relay's
     * validation threads, for several messages at once; its verdict is the message's.
     */
    Verdict verify(Envelope envelope);
}
