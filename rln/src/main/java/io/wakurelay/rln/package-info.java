/**
 * RLN relay (RFC 17 with rln-v2), as nwaku validates it on The Waku Network (docs/rln.md). In flow order:
 * <ul>
 * <li>{@link io.wakurelay.rln.RlnConfig}: the endpoints, contract, epoch and bounds.</li>
 * </ul>
 */
package io.wakurelay.rln;
