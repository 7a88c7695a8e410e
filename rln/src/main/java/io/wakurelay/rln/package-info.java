/**
 * RLN relay (RFC 17 with rln-v2), as nwaku validates it on The Waku Network (docs/rln.md). In flow order:
 * <ul>
 * <li>{@link io.wakurelay.rln.RlnConfig}: the endpoints, contract, epoch and bounds.</li>
 * <li>{@code io.wakurelay.rln.chain}: the membership roots read from the chain
 *     ({@link io.wakurelay.rln.chain.MembershipRoots}).</li>
 * </ul>
 */
package io.wakurelay.rln;
