package io.wakurelay.rln.proof;

import io.netty.buffer.Unpooled;
import io.wakurelay.rln.RlnConfig.NullifierDerivation;
import io.wakurelay.rln.crypto.ExternalNullifier;
import io.wakurelay.rln.crypto.FieldElement;
import io.wakurelay.rln.crypto.HashToField;
import io.wakurelay.rln.crypto.Poseidon;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Run by {@link NativeLibraryLoadingTest} in a JVM of its own: uses the rln module without ({@code off}) or with
 * ({@code on}) the native backend, then prints whether zwaves' library is mapped into the process.
 */
public final class NativeLibraryProbe {
    private NativeLibraryProbe() {
    }

    public static void main(String[] args) throws Exception {
        // everything of the module that does not need a pairing
        Poseidon.hash(FieldElement.ONE, FieldElement.ONE);
        HashToField.hash(new byte[] {1, 2, 3});
        ExternalNullifier.derive(new byte[32], new byte[32], NullifierDerivation.V038);
        RateLimitProof.decode(Unpooled.EMPTY_BUFFER).checkFields();
        VerifyingKey.rlnV2();
        byte[] atInfinity = new byte[128];
        atInfinity[31] = 0x40;
        atInfinity[95] = 0x40;
        atInfinity[127] = 0x40;
        Groth16Proof.decode(atInfinity, 0).hasPointAtInfinity();
        if (args[0].equals("on")) {
            try {
                ProofVerifier.rlnV2();
            } catch (Groth16BackendUnavailableException e) {
                System.out.println("unavailable: " + e.getMessage());
                System.exit(3);
            }
        }
        boolean mapped = Files.readString(Path.of("/proc/self/maps")).contains("zwaves_jni");
        System.out.println("zwaves_jni mapped: " + mapped);
    }
}
