package io.wakurelay.p2p.noise;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The Noise {@code SymmetricState} (section 5.2) with SHA-256: the chaining key {@code ck}, the handshake hash
 * {@code h} and the handshake's {@link CipherState}. HKDF is section 4.3's: HMAC-SHA256 with {@code ck} as the key.
 */
final class SymmetricState {

    private static final int HASH_LENGTH = 32;

    private final ChaChaPoly implementation;
    private final CipherState cipher;
    private final MessageDigest sha256;
    private final Mac hmac;
    private byte[] ck;
    private byte[] h;

    SymmetricState(String protocolName, ChaChaPoly implementation) {
        this.implementation = implementation;
        this.cipher = new CipherState(implementation);
        try {
            sha256 = MessageDigest.getInstance("SHA-256");
            hmac = Mac.getInstance("HmacSHA256");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JDK has SHA-256 and HMAC-SHA256", e);
        }
        byte[] name = protocolName.getBytes(StandardCharsets.US_ASCII);
        h = name.length <= HASH_LENGTH ? Arrays.copyOf(name, HASH_LENGTH) : sha256.digest(name);
        ck = h.clone();
    }

    void mixHash(byte[] data) {
        sha256.update(h);
        sha256.update(data);
        h = sha256.digest();
    }

    void mixKey(byte[] inputKeyMaterial) {
        byte[][] outputs = hkdf(inputKeyMaterial);
        ck = outputs[0];
        cipher.initializeKey(outputs[1]);
    }

    byte[] encryptAndHash(byte[] plaintext) {
        byte[] ciphertext = cipher.encryptWithAd(h, plaintext);
        mixHash(ciphertext);
        return ciphertext;
    }

    byte[] decryptAndHash(byte[] ciphertext) {
        byte[] plaintext = cipher.decryptWithAd(h, ciphertext);
        mixHash(ciphertext);
        return plaintext;
    }

    boolean hasKey() {
        return cipher.hasKey();
    }

    /** The two transport cipher states: initiator to responder, then responder to initiator. */
    CipherState[] split() {
        byte[][] outputs = hkdf(new byte[0]);
        return new CipherState[] {new CipherState(implementation, outputs[0]), new CipherState(implementation, outputs[1])};
    }

    byte[] handshakeHash() {
        return h.clone();
    }

    /** HKDF(ck, ikm, 2): temp = HMAC(ck, ikm); out1 = HMAC(temp, 0x01); out2 = HMAC(temp, out1 ‖ 0x02). */
    private byte[][] hkdf(byte[] inputKeyMaterial) {
        try {
            hmac.init(new SecretKeySpec(ck, "HmacSHA256"));
            byte[] tempKey = hmac.doFinal(inputKeyMaterial);
            hmac.init(new SecretKeySpec(tempKey, "HmacSHA256"));
            byte[] output1 = hmac.doFinal(new byte[] {0x01});
            hmac.update(output1);
            byte[] output2 = hmac.doFinal(new byte[] {0x02});
            return new byte[][] {output1, output2};
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA256 refused a 32-byte key", e);
        }
    }
}
