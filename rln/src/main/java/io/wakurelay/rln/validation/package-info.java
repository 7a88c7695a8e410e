/**
 * RLN's validation of relay messages, as nwaku validates them and stricter where nwaku is weak (docs/rln.md). In flow
 * order:
 * <ul>
 * <li>{@link io.wakurelay.rln.validation.RlnRelay}: RLN relay on a node, as nwaku mounts it with {@code --rln-relay}
 *     (the backend, the roots from the chain, the nullifier log, the validation);</li>
 * <li>{@code RlnRelayValidator}: the validation as the relay's validator, each outcome a gossipsub verdict;</li>
 * <li>{@link io.wakurelay.rln.validation.RlnValidation}: the checks in nwaku's order, cheap ones ({@code screen}) and
 *     the proof ({@code verify}), each ending as an {@link io.wakurelay.rln.validation.RlnOutcome};</li>
 * <li>{@link io.wakurelay.rln.validation.AcceptableRoots}: the membership roots a proof may name;</li>
 * <li>{@code NullifierLog}: the nullifiers of valid messages per epoch, for double signals;</li>
 * <li>{@code RlnMetrics}: nwaku's {@code waku_rln_*} meters and ours.</li>
 * </ul>
 */
package io.wakurelay.rln.validation;
