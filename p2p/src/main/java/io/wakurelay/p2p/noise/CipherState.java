package io.wakurelay.p2p.noise;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * A Noise {@code CipherState} with the {@code ChaChaPoly} cipher functions (Noise sections 5.1 and 12.3):
 * ChaCha20-Poly1305 (RFC 8439) with a 32-byte key and a 96-bit nonce of 4 zero bytes and the 64-bit counter
 * little-endian. After the handshake one encrypts what we send and one decrypts what we receive; transport
 * messages have empty associated data and carry the 16-byte tag after the ciphertext.
 *
 * <p>The implementation is the JDK's or Conscrypt's ({@link ChaChaPoly}, chosen by {@link AeadSelection}).
 *
 * <p>Runs once per frame: it keeps one {@link Cipher} and re-initialises it with the next nonce, and works
 * on the caller's buffers (heap or direct) without copies of its own. The JDK's own allocation per message is
 * constant for heap buffers, but for direct buffers the JDK copies through new arrays as large as the message
 * (and on JDK 17 several times that when decrypting): {@code CipherStateBenchmark} measures both, and copying
 * direct buffers through one reused heap array first. Conscrypt's is the opposite ({@link #directBuffers()}), so
 * the frame codecs give each implementation the kind it works on in place. Not thread safe: one thread (a
 * connection's event loop) uses it at a time. The nonce 2^64-1 is reserved: a session that reaches it must end ({@link NoiseException}).
 */
public final class CipherState {

    /** The Poly1305 tag after each ciphertext. */
    public static final int TAG_LENGTH = 16;
    /** The largest Noise message (section 3), tag included. */
    public static final int MAX_MESSAGE_LENGTH = 65535;
    /** The largest plaintext of one transport message. */
    public static final int MAX_PLAINTEXT_LENGTH = MAX_MESSAGE_LENGTH - TAG_LENGTH;

    private static final long RESERVED_NONCE = -1L; // 2^64-1 as an unsigned long
    private static final byte[] NO_ASSOCIATED_DATA = new byte[0];

    private final Cipher cipher;
    private final boolean directBuffers;
    private final byte[] nonceBytes = new byte[12];
    private SecretKeySpec key; // null while empty (the handshake before the first MixKey)
    private long nonce;

    /** An empty cipher state: encryption is the identity until a key is set. */
    CipherState(ChaChaPoly implementation) {
        try {
            this.cipher = implementation.newCipher();
            this.directBuffers = implementation.directBuffers();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(implementation + "'s ChaCha20-Poly1305 is not there", e);
        }
    }

    CipherState(ChaChaPoly implementation, byte[] key) {
        this(implementation, key, 0);
    }

    /** The JDK's, for tests. */
    CipherState(byte[] key) {
        this(ChaChaPoly.JDK, key, 0);
    }

    /** A cipher state at a given nonce: for tests of the nonce limit. */
    CipherState(ChaChaPoly implementation, byte[] key, long nonce) {
        this(implementation);
        initializeKey(key);
        this.nonce = nonce;
    }

    void initializeKey(byte[] newKey) {
        if (newKey.length != 32) {
            throw new IllegalArgumentException("a ChaChaPoly key has 32 bytes, not " + newKey.length);
        }
        this.key = new SecretKeySpec(newKey, "ChaCha20");
        this.nonce = 0;
    }

    /**
     * Whether {@link #encrypt} and {@link #decrypt} run without copies of the implementation's own on direct buffers
     * (Conscrypt's), rather than on heap buffers (the JDK's); either kind works with both.
     */
    boolean directBuffers() {
        return directBuffers;
    }

    boolean hasKey() {
        return key != null;
    }

    /** The nonce the next message will use (an unsigned 64-bit counter). */
    public long nonce() {
        return nonce;
    }

    /**
     * Encrypts the plaintext's remaining bytes (at most {@link #MAX_PLAINTEXT_LENGTH}) into {@code ciphertextOut}
     * with the tag; both positions advance. Returns the bytes written: the plaintext's length plus 16.
     */
    public int encrypt(ByteBuffer plaintext, ByteBuffer ciphertextOut) {
        int length = plaintext.remaining();
        if (length > MAX_PLAINTEXT_LENGTH) {
            throw new IllegalArgumentException("a transport message carries at most " + MAX_PLAINTEXT_LENGTH
                    + " plaintext bytes, not " + length);
        }
        if (ciphertextOut.remaining() < length + TAG_LENGTH) {
            throw new IllegalArgumentException("room for " + (length + TAG_LENGTH) + " ciphertext bytes needed, "
                    + ciphertextOut.remaining() + " left");
        }
        requireKey();
        init(Cipher.ENCRYPT_MODE);
        try {
            int written = cipher.doFinal(plaintext, ciphertextOut);
            nonce++;
            return written;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("ChaCha20-Poly1305 encryption failed", e);
        }
    }

    /**
     * Decrypts and authenticates the ciphertext's remaining bytes (tag included, 16 to 65535 bytes) into
     * {@code plaintextOut}; both positions advance. Returns the plaintext bytes written. A
     * {@link NoiseException} when the tag does not verify: the nonce stays where it was and nothing is written.
     */
    public int decrypt(ByteBuffer ciphertext, ByteBuffer plaintextOut) {
        int length = ciphertext.remaining();
        if (length < TAG_LENGTH || length > MAX_MESSAGE_LENGTH) {
            throw new NoiseException("a transport message has 16 to 65535 bytes, not " + length);
        }
        if (plaintextOut.remaining() < length - TAG_LENGTH) {
            throw new IllegalArgumentException("room for " + (length - TAG_LENGTH) + " plaintext bytes needed, "
                    + plaintextOut.remaining() + " left");
        }
        requireKey();
        init(Cipher.DECRYPT_MODE);
        try {
            int written = cipher.doFinal(ciphertext, plaintextOut);
            nonce++;
            return written;
        } catch (AEADBadTagException e) {
            forgetNonce();
            throw new NoiseException("a transport message failed authentication at nonce "
                    + Long.toUnsignedString(nonce), e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("ChaCha20-Poly1305 decryption failed", e);
        }
    }

    /** EncryptWithAd for the handshake: the plaintext itself while the state has no key. */
    byte[] encryptWithAd(byte[] associatedData, byte[] plaintext) {
        if (key == null) {
            return plaintext.clone();
        }
        init(Cipher.ENCRYPT_MODE);
        try {
            cipher.updateAAD(associatedData);
            byte[] ciphertext = cipher.doFinal(plaintext);
            nonce++;
            return ciphertext;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("ChaCha20-Poly1305 encryption failed", e);
        }
    }

    /** DecryptWithAd for the handshake: the ciphertext itself while the state has no key. */
    byte[] decryptWithAd(byte[] associatedData, byte[] ciphertext) {
        if (key == null) {
            return ciphertext.clone();
        }
        if (ciphertext.length < TAG_LENGTH) {
            throw new NoiseException("a ciphertext of " + ciphertext.length + " bytes has no room for its tag");
        }
        init(Cipher.DECRYPT_MODE);
        try {
            cipher.updateAAD(associatedData);
            byte[] plaintext = cipher.doFinal(ciphertext);
            nonce++;
            return plaintext;
        } catch (AEADBadTagException e) {
            forgetNonce();
            throw new NoiseException("a handshake message failed authentication", e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("ChaCha20-Poly1305 decryption failed", e);
        }
    }

    static byte[] noAssociatedData() {
        return NO_ASSOCIATED_DATA;
    }

    /**
     * After a failed decryption the nonce stays (Noise 5.1), but the JDK refuses to initialise ChaCha20-Poly1305
     * twice in a row with the same key and nonce. An initialisation with a nonce no message uses (its first four
     * bytes are never set) makes the next real one acceptable again.
     */
    private void forgetNonce() {
        byte[] unused = {-1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0};
        try {
            cipher.init(Cipher.DECRYPT_MODE, key, new IvParameterSpec(unused));
        } catch (InvalidKeyException | InvalidAlgorithmParameterException e) {
            throw new IllegalStateException("ChaCha20-Poly1305 refused its key or nonce", e);
        }
    }

    private void requireKey() {
        if (key == null) {
            throw new IllegalStateException("a transport cipher state always has a key");
        }
    }

    private void init(int mode) {
        if (nonce == RESERVED_NONCE) {
            throw new NoiseException("the nonce is exhausted (2^64-1 is reserved): the session must end");
        }
        long n = nonce;
        for (int i = 4; i < 12; i++) { // bytes 0-3 stay zero
            nonceBytes[i] = (byte) n;
            n >>>= 8;
        }
        try {
            cipher.init(mode, key, new IvParameterSpec(nonceBytes));
        } catch (InvalidKeyException | InvalidAlgorithmParameterException e) {
            throw new IllegalStateException("ChaCha20-Poly1305 refused its key or nonce", e);
        }
    }
}
