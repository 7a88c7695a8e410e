package io.wakurelay.rln.crypto;

import io.wakurelay.rln.RlnConfig.NullifierDerivation;

/**
 * The external nullifier of an RLN proof, computed by the verifier from the proof's epoch (field 3) and rln
 * identifier (field 7), 32 bytes each; it is not on the wire. Two derivations, not compatible with each other:
 * <ul>
 * <li>{@link NullifierDerivation#V038}: Poseidon(H(epoch), H(rln_identifier)), H the {@link HashToField hash to
 *     field} of the 32 bytes (nwaku v0.38.0 and later);</li>
 * <li>{@link NullifierDerivation#LEGACY}: Poseidon(epoch, rln_identifier), each 32-byte field read as a
 *     little-endian integer (reduced mod r, as zerokit reads field elements; nwaku up to v0.37.x).</li>
 * </ul>
 * About 30 µs (a Poseidon and, for V038, two keccak-256): callers cache it per epoch and identifier.
 */
public final class ExternalNullifier {
    private ExternalNullifier() {
    }

    /**
     * @param epoch      32 bytes: the epoch as u64 little-endian, zeros after
     * @param identifier 32 bytes: the rln identifier, zero-padded
     */
    public static FieldElement derive(byte[] epoch, byte[] identifier, NullifierDerivation derivation) {
        if (epoch.length != 32 || identifier.length != 32) {
            throw new IllegalArgumentException("epoch and rln identifier are 32 bytes each, got " + epoch.length
                    + " and " + identifier.length);
        }
        return switch (derivation) {
            case V038 -> Poseidon.hash(HashToField.hash(epoch), HashToField.hash(identifier));
            case LEGACY -> Poseidon.hash(FieldElement.reduceLittleEndian(epoch, 0, 32),
                    FieldElement.reduceLittleEndian(identifier, 0, 32));
        };
    }
}
