package io.wakurelay.p2p.noise;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.KeyFactory;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.interfaces.XECPublicKey;
import java.security.spec.NamedParameterSpec;
import java.security.spec.XECPrivateKeySpec;
import java.security.spec.XECPublicKeySpec;
import javax.crypto.KeyAgreement;

/**
 * The Noise {@code 25519} DH functions (RFC 7748 X25519) on the JDK's XDH, with keys in their raw 32-byte
 * little-endian encoding. The JDK signals an all-zero shared secret (a low-order remote key) as an error, which
 * Noise allows (section 12.1); it becomes a {@link NoiseException}.
 */
public final class X25519 {

    public static final int KEY_LENGTH = 32;

    private static final BigInteger BASE_POINT = BigInteger.valueOf(9);

    private X25519() {
    }

    /** An X25519 key pair: the JDK private key and the raw public key. */
    public static final class KeyPair {

        private final PrivateKey privateKey;
        private final byte[] publicKey;

        private KeyPair(PrivateKey privateKey, byte[] publicKey) {
            this.privateKey = privateKey;
            this.publicKey = publicKey;
        }

        /** The 32-byte public key, as it travels in the handshake. */
        public byte[] publicKey() {
            return publicKey.clone();
        }

        byte[] publicKeyBytes() {
            return publicKey;
        }

        @Override
        public String toString() {
            return "X25519 key pair"; // never the private key
        }
    }

    /** A new random key pair. */
    public static KeyPair generate() {
        try {
            java.security.KeyPair pair = KeyPairGenerator.getInstance("X25519").generateKeyPair();
            return new KeyPair(pair.getPrivate(), encode(((XECPublicKey) pair.getPublic()).getU()));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JDK since 11 has X25519", e);
        }
    }

    /** The key pair of a 32-byte private key (for fixed test vectors). The public key is DH(private, 9). */
    static KeyPair fromPrivateKey(byte[] privateKey) {
        if (privateKey.length != KEY_LENGTH) {
            throw new IllegalArgumentException("an X25519 private key has 32 bytes, not " + privateKey.length);
        }
        try {
            PrivateKey key = KeyFactory.getInstance("X25519")
                    .generatePrivate(new XECPrivateKeySpec(NamedParameterSpec.X25519, privateKey.clone()));
            return new KeyPair(key, agree(key, publicKey(BASE_POINT)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("X25519 with the base point cannot fail", e);
        }
    }

    /** DH(local, remote): the 32-byte shared secret. */
    static byte[] dh(KeyPair local, byte[] remotePublicKey) {
        if (remotePublicKey.length != KEY_LENGTH) {
            throw new NoiseException("an X25519 public key has 32 bytes, not " + remotePublicKey.length);
        }
        try {
            return agree(local.privateKey, publicKey(decode(remotePublicKey)));
        } catch (InvalidKeyException e) {
            throw new NoiseException("the remote X25519 key gives no shared secret (a low-order point)", e);
        } catch (GeneralSecurityException e) {
            throw new NoiseException("X25519 failed", e);
        }
    }

    private static byte[] agree(PrivateKey privateKey, PublicKey publicKey) throws GeneralSecurityException {
        KeyAgreement agreement = KeyAgreement.getInstance("X25519");
        agreement.init(privateKey);
        agreement.doPhase(publicKey, true);
        return agreement.generateSecret();
    }

    private static PublicKey publicKey(BigInteger u) throws GeneralSecurityException {
        return KeyFactory.getInstance("X25519").generatePublic(new XECPublicKeySpec(NamedParameterSpec.X25519, u));
    }

    /** RFC 7748 section 5: little-endian, the most significant bit masked. */
    static BigInteger decode(byte[] littleEndian) {
        byte[] bigEndian = new byte[KEY_LENGTH];
        for (int i = 0; i < KEY_LENGTH; i++) {
            bigEndian[i] = littleEndian[KEY_LENGTH - 1 - i];
        }
        bigEndian[0] &= 0x7f;
        return new BigInteger(1, bigEndian);
    }

    static byte[] encode(BigInteger u) {
        byte[] bigEndian = u.toByteArray();
        byte[] littleEndian = new byte[KEY_LENGTH];
        for (int i = 0; i < Math.min(bigEndian.length, KEY_LENGTH); i++) {
            littleEndian[i] = bigEndian[bigEndian.length - 1 - i];
        }
        return littleEndian;
    }
}
