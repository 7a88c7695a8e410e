package io.wakurelay.rln.proof;

import io.wakurelay.rln.crypto.FieldElement;

import java.util.Locale;

/**
 * {@link Groth16Verifier} on zwaves ({@code com.wavesplatform:zwaves}): pairing_ce's BN256 in Rust behind JNI,
 * {@code bn256.Groth16.verify(vk, proof, inputs)} with pairing_ce's compressed encodings (docs/adr/0083). The key is
 * encoded once; each call encodes the proof's checked points and the inputs and makes one native call, which holds no
 * state, so calls from several threads run at once.
 *
 * <p>The native library is loaded by {@link #create(VerifyingKey)}, not before: a node with RLN off never loads it.
 * Where it does not load, {@link Groth16BackendUnavailableException} names the platform.
 */
public final class ZwavesGroth16Verifier implements Groth16Verifier {
    /** The platforms the zwaves 0.2.1 jar carries a library for (META-INF/native/). */
    static final String PLATFORMS = "linux/amd64, linux/aarch64, linux/x86, osx/x86_64, osx/aarch64, windows/amd64, "
            + "windows/x86";
    private static final String ZWAVES_CLASS = "com.wavesplatform.zwaves.bn256.Groth16";

    private final byte[] key;
    private final int inputs;

    private ZwavesGroth16Verifier(byte[] key, int inputs) {
        this.key = key;
        this.inputs = inputs;
    }

    /**
     * Loads the native library (once per JVM) and binds the key.
     *
     * @throws Groth16BackendUnavailableException where the library cannot be loaded
     */
    public static ZwavesGroth16Verifier create(VerifyingKey vk) {
        NativeLibrary.ensureLoaded();
        int g1 = PairingCeEncoding.G1_BYTES;
        int g2 = PairingCeEncoding.G2_BYTES;
        byte[] key = new byte[g1 + 3 * g2 + g1 * vk.ic.size()];
        PairingCeEncoding.writeG1(vk.alpha, key, 0);
        PairingCeEncoding.writeG2(vk.beta, key, g1);
        PairingCeEncoding.writeG2(vk.gamma, key, g1 + g2);
        PairingCeEncoding.writeG2(vk.delta, key, g1 + 2 * g2);
        for (int i = 0; i < vk.ic.size(); i++) {
            PairingCeEncoding.writeG1(vk.ic.get(i), key, g1 + 3 * g2 + g1 * i);
        }
        return new ZwavesGroth16Verifier(key, vk.publicInputs());
    }

    @Override
    public boolean verify(Groth16Proof proof, FieldElement[] publicInputs) {
        if (publicInputs.length != inputs) {
            throw new IllegalArgumentException("the key takes " + inputs + " public inputs, got " + publicInputs.length);
        }
        byte[] encoded = new byte[2 * PairingCeEncoding.G1_BYTES + PairingCeEncoding.G2_BYTES];
        PairingCeEncoding.writeG1(proof.a, encoded, 0);
        PairingCeEncoding.writeG2(proof.b, encoded, PairingCeEncoding.G1_BYTES);
        PairingCeEncoding.writeG1(proof.c, encoded, PairingCeEncoding.G1_BYTES + PairingCeEncoding.G2_BYTES);
        byte[] scalars = new byte[PairingCeEncoding.SCALAR_BYTES * inputs];
        for (int i = 0; i < inputs; i++) {
            PairingCeEncoding.writeScalar(publicInputs[i], scalars, PairingCeEncoding.SCALAR_BYTES * i);
        }
        return com.wavesplatform.zwaves.bn256.Groth16.verify(key, encoded, scalars);
    }

    /** Loads zwaves' library once; remembers a failure. */
    static final class NativeLibrary {
        private static Groth16BackendUnavailableException failure;
        private static boolean loaded;

        private NativeLibrary() {
        }

        static synchronized void ensureLoaded() {
            if (loaded) {
                return;
            }
            if (failure == null) {
                try {
                    // initialising the class extracts and loads the library for this platform
                    Class.forName(ZWAVES_CLASS, true, ZwavesGroth16Verifier.class.getClassLoader());
                    loaded = true;
                    return;
                } catch (LinkageError | ClassNotFoundException e) {
                    failure = new Groth16BackendUnavailableException("RLN needs zwaves' native Groth16 library, "
                            + "which does not load on " + platform() + " (the zwaves jar carries " + PLATFORMS + "): "
                            + e, e);
                }
            }
            throw failure;
        }

        static String platform() {
            return System.getProperty("os.name", "?").toLowerCase(Locale.ROOT) + "/"
                    + System.getProperty("os.arch", "?");
        }
    }
}
