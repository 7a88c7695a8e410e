/**
 * What a validator beyond the message format (RLN, RFC 17) implements to plug into the relay's asynchronous validation
 * stage (docs/relay.md, "Validation"; docs/adr/0085-asynchronous-validation.md). In flow order:
 * <ul>
 * <li>{@link io.wakurelay.relay.validation.RelayValidator}: the cheap {@code screen} where a message arrived, the
 *     expensive {@code verify} on the relay's validation threads.</li>
 * <li>{@link io.wakurelay.relay.validation.Screen}: a verdict at once, or {@code VERIFY}.</li>
 * <li>{@link io.wakurelay.relay.validation.Verdict}: accept, reject (with a reason), ignore (with a reason).</li>
 * <li>{@link io.wakurelay.relay.validation.ValidationConfig}: the stage's threads, queue and per-peer budget.</li>
 * </ul>
 * The stage itself ({@code ValidationRoom}) and what it does with each verdict ({@code Verdicts}) are the relay's, in
 * {@code io.wakurelay.relay}; this package knows nothing of the relay.
 */
package io.wakurelay.relay.validation;
