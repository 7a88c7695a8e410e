package io.wakurelay.p2p.noise;

import org.conscrypt.Conscrypt;

import java.security.GeneralSecurityException;
import java.security.Provider;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Optional;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * An implementation of ChaCha20-Poly1305 (RFC 8439) for the Noise ciphers: the JDK's (SunJCE), or Conscrypt's
 * (BoringSSL's, native; {@code org.conscrypt:conscrypt-openjdk-uber}). Before Java 20 the JDK's runs at about a
 * tenth of Conscrypt's speed; from Java 20 on, on a CPU with the instructions its intrinsics need, it can be faster
 * ({@link AeadSelection} decides; docs/adr/0070-native-aead-for-noise.md has the figures).
 *
 * <p>Conscrypt is used as a provider object, never installed in the JVM's provider list: nothing else in the
 * process (TLS, other ciphers) changes.
 */
public final class ChaChaPoly {
    /** The JDK's implementation, always there (every JDK since 11). */
    public static final ChaChaPoly JDK = new ChaChaPoly("jdk", null, "ChaCha20-Poly1305", false);

    private static final Object LOCK = new Object();
    private static Loaded conscrypt; // guarded by LOCK

    private final String label;
    private final Provider provider;
    private final String transformation;
    private final boolean directBuffers;

    /** Conscrypt as it loaded on this platform: the implementation, or why there is none. */
    private record Loaded(ChaChaPoly implementation, String failure) {
    }

    private ChaChaPoly(String label, Provider provider, String transformation, boolean directBuffers) {
        this.label = label;
        this.provider = provider;
        this.transformation = transformation;
        this.directBuffers = directBuffers;
    }

    /** Its name in logs, flags and metric labels: {@code jdk} or {@code conscrypt}. */
    public String label() {
        return label;
    }

    /**
     * Whether this implementation should be given direct buffers. Conscrypt seals and opens direct buffers in place,
     * but copies heap buffers into two new direct buffers per call (zeroed, and freed only when a collection runs
     * their cleaners: at 64 KiB per Noise message they exhaust the direct memory limit, and each allocation past it
     * waits for a full collection). The JDK's cipher is the other way round: heap arrays in place, direct buffers
     * copied through new arrays.
     */
    boolean directBuffers() {
        return directBuffers;
    }

    /** A new cipher of this implementation (one per {@link CipherState}). */
    Cipher newCipher() throws GeneralSecurityException {
        return provider == null ? Cipher.getInstance(transformation) : Cipher.getInstance(transformation, provider);
    }

    /**
     * Conscrypt's implementation, loaded once: empty when its native library does not load on this platform or its
     * output differs from the JDK's ({@link #conscryptFailure()} says why).
     */
    public static Optional<ChaChaPoly> conscrypt() {
        return Optional.ofNullable(loadConscrypt().implementation);
    }

    /** Why Conscrypt's implementation is not available, or null when it is. */
    public static String conscryptFailure() {
        return loadConscrypt().failure;
    }

    private static Loaded loadConscrypt() {
        synchronized (LOCK) {
            if (conscrypt == null) {
                conscrypt = tryConscrypt();
            }
            return conscrypt;
        }
    }

    private static Loaded tryConscrypt() {
        try {
            Conscrypt.checkAvailability(); // throws what kept its native library from loading
            ChaChaPoly candidate = new ChaChaPoly("conscrypt", Conscrypt.newProvider(), "ChaCha20/Poly1305/NoPadding", true);
            String mismatch = sameAsJdk(candidate);
            return mismatch == null ? new Loaded(candidate, null) : new Loaded(null, mismatch);
        } catch (LinkageError | RuntimeException | GeneralSecurityException e) {
            return new Loaded(null, "Conscrypt did not load: " + e);
        }
    }

    /**
     * Encrypts random messages with a random key under both implementations, with and without associated data as
     * Noise uses them, and decrypts each with the other: null when they agree byte for byte, else what differed.
     */
    static String sameAsJdk(ChaChaPoly candidate) throws GeneralSecurityException {
        SecureRandom random = new SecureRandom();
        byte[] key = new byte[32];
        random.nextBytes(key);
        SecretKeySpec spec = new SecretKeySpec(key, "ChaCha20");
        for (int length : new int[]{0, 1, 63, 64, 65, 1000, CipherState.MAX_PLAINTEXT_LENGTH}) {
            byte[] nonce = new byte[12];
            random.nextBytes(nonce);
            byte[] plaintext = new byte[length];
            random.nextBytes(plaintext);
            byte[] associatedData = new byte[length % 2 == 0 ? 32 : 0];
            random.nextBytes(associatedData);
            byte[] expected = crypt(JDK, Cipher.ENCRYPT_MODE, spec, nonce, associatedData, plaintext);
            byte[] actual = crypt(candidate, Cipher.ENCRYPT_MODE, spec, nonce, associatedData, plaintext);
            if (!Arrays.equals(expected, actual)) {
                return candidate.label + "'s ChaCha20-Poly1305 output differs from the JDK's for " + length + " bytes";
            }
            if (!Arrays.equals(plaintext, crypt(candidate, Cipher.DECRYPT_MODE, spec, nonce, associatedData, expected))) {
                return candidate.label + "'s ChaCha20-Poly1305 does not decrypt the JDK's output of " + length + " bytes";
            }
        }
        return null;
    }

    private static byte[] crypt(ChaChaPoly implementation, int mode, SecretKeySpec key, byte[] nonce,
                                byte[] associatedData, byte[] input) throws GeneralSecurityException {
        Cipher cipher = implementation.newCipher();
        cipher.init(mode, key, new IvParameterSpec(nonce));
        cipher.updateAAD(associatedData);
        return cipher.doFinal(input);
    }

    @Override
    public String toString() {
        return label;
    }
}
