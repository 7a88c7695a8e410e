package io.wakurelay.rln.proof;

/**
 * The pairing backend (zwaves' native library) cannot be loaded on this platform: RLN cannot validate proofs here.
 * The message names the platform and the ones the library carries.
 */
public final class Groth16BackendUnavailableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public Groth16BackendUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
