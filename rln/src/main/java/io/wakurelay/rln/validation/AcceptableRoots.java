package io.wakurelay.rln.validation;

/**
 * The membership roots a proof may name (the chain's last ones: {@code io.wakurelay.rln.chain.MembershipRoots} in a
 * node, a fixed set in the tests of the validation).
 */
public interface AcceptableRoots {
    /** Whether {@code root}, 32 bytes little-endian as a proof carries it, is acceptable now. Any thread, no wait. */
    boolean contains(byte[] root);

    /** A message named a root not held: the holder may look for newer roots. Never blocks. */
    void onUnknownRoot();
}
