package io.wakurelay.discovery.discv5;

import io.wakurelay.discovery.enr.Secp256k1Signatures;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.generators.HKDFBytesGenerator;
import org.bouncycastle.crypto.params.ECDomainParameters;
import org.bouncycastle.crypto.params.ECPrivateKeyParameters;
import org.bouncycastle.crypto.params.ECPublicKeyParameters;
import org.bouncycastle.crypto.params.HKDFParameters;
import org.bouncycastle.crypto.signers.ECDSASigner;
import org.bouncycastle.crypto.signers.HMacDSAKCalculator;
import org.bouncycastle.math.ec.ECPoint;

/**
 * The cryptography of the discv5 wire protocol (v5.1) for the "v4" identity scheme: header masking (AES-128-CTR),
 * message encryption (AES-128-GCM, 16-byte tag appended), ECDH on secp256k1 (the 33-byte compressed shared point),
 * session keys by HKDF-SHA256, and the id-nonce signature (secp256k1 ECDSA over SHA-256, r ‖ s with a low s, the
 * nonce from RFC 6979 so that a signature is the one go-ethereum would make).
 */
public final class Discv5Crypto {

    public static final int KEY_LENGTH = 16;
    public static final int NONCE_LENGTH = 12;
    public static final int TAG_LENGTH = 16;
    static final int SIGNATURE_LENGTH = 64;
    static final int PUBLIC_KEY_LENGTH = 33;

    private static final byte[] KDF_INFO_TEXT = "discovery v5 key agreement".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] ID_PROOF_TEXT = "discovery v5 identity proof".getBytes(StandardCharsets.US_ASCII);
    private static final ECDomainParameters DOMAIN = Secp256k1Signatures.curve();
    private static final BigInteger HALF_N = DOMAIN.getN().shiftRight(1);

    private Discv5Crypto() {
    }

    /** The two session keys of a handshake: the initiator writes with the first, the recipient with the second. */
    public record SessionKeys(byte[] initiatorKey, byte[] recipientKey) {
    }

    /** AES-128-CTR over {@code data[offset, offset+length)} (masking and unmasking are the same operation). */
    static byte[] aesCtr(byte[] key, byte[] iv, byte[] data, int offset, int length) {
        try {
            Cipher cipher = Cipher.getInstance("AES/CTR/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new IvParameterSpec(iv));
            return cipher.doFinal(data, offset, length);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES/CTR is not available", e);
        }
    }

    public static byte[] aesGcmEncrypt(byte[] key, byte[] nonce, byte[] plaintext, byte[] ad) {
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new GCMParameterSpec(TAG_LENGTH * 8, nonce));
            cipher.updateAAD(ad);
            return cipher.doFinal(plaintext);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES/GCM is not available", e);
        }
    }

    /** The plaintext, or null when the message does not authenticate with this key (a stale or unknown session). */
    public static byte[] aesGcmDecrypt(byte[] key, byte[] nonce, byte[] ciphertext, byte[] ad) {
        if (ciphertext.length < TAG_LENGTH) {
            return null;
        }
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, new SecretKeySpec(key, "AES"), new GCMParameterSpec(TAG_LENGTH * 8, nonce));
            cipher.updateAAD(ad);
            return cipher.doFinal(ciphertext);
        } catch (javax.crypto.AEADBadTagException e) {
            return null;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES/GCM is not available", e);
        }
    }

    /** ECDH: the 33-byte compressed encoding of {@code publicKey * scalar}. */
    public static byte[] ecdh(byte[] compressedPublicKey, byte[] scalar) {
        ECPoint shared = point(compressedPublicKey).multiply(new BigInteger(1, scalar)).normalize();
        return shared.getEncoded(true);
    }

    /** The session keys of a handshake between initiator A and recipient B (the spec's HKDF). */
    public static SessionKeys deriveKeys(byte[] secret, byte[] nodeIdA, byte[] nodeIdB, byte[] challengeData) {
        HKDFBytesGenerator hkdf = new HKDFBytesGenerator(new SHA256Digest());
        hkdf.init(new HKDFParameters(secret, challengeData, concat(KDF_INFO_TEXT, nodeIdA, nodeIdB)));
        byte[] keyData = new byte[2 * KEY_LENGTH];
        hkdf.generateBytes(keyData, 0, keyData.length);
        return new SessionKeys(Arrays.copyOfRange(keyData, 0, KEY_LENGTH),
                Arrays.copyOfRange(keyData, KEY_LENGTH, 2 * KEY_LENGTH));
    }

    /** The handshake's id-signature of the initiator's static key over the challenge and the ephemeral key. */
    public static byte[] idSign(byte[] staticScalar, byte[] challengeData, byte[] ephemeralPublicKey,
            byte[] destNodeId) {
        ECDSASigner signer = new ECDSASigner(new HMacDSAKCalculator(new SHA256Digest()));
        signer.init(true, new ECPrivateKeyParameters(new BigInteger(1, staticScalar), DOMAIN));
        BigInteger[] rs = signer.generateSignature(idProofHash(challengeData, ephemeralPublicKey, destNodeId));
        BigInteger s = rs[1].compareTo(HALF_N) > 0 ? DOMAIN.getN().subtract(rs[1]) : rs[1];
        byte[] signature = new byte[SIGNATURE_LENGTH];
        writeUnsigned(rs[0], signature, 0);
        writeUnsigned(s, signature, 32);
        return signature;
    }

    /** Whether {@code signature} proves that the holder of {@code compressedPublicKey} answered this challenge. */
    public static boolean idVerify(byte[] compressedPublicKey, byte[] signature, byte[] challengeData,
            byte[] ephemeralPublicKey, byte[] destNodeId) {
        if (signature.length != SIGNATURE_LENGTH) {
            return false;
        }
        BigInteger r = new BigInteger(1, Arrays.copyOfRange(signature, 0, 32));
        BigInteger s = new BigInteger(1, Arrays.copyOfRange(signature, 32, 64));
        if (r.signum() == 0 || r.compareTo(DOMAIN.getN()) >= 0 || s.signum() == 0 || s.compareTo(DOMAIN.getN()) >= 0) {
            return false;
        }
        try {
            ECDSASigner verifier = new ECDSASigner();
            verifier.init(false, new ECPublicKeyParameters(point(compressedPublicKey), DOMAIN));
            return verifier.verifySignature(idProofHash(challengeData, ephemeralPublicKey, destNodeId), r, s);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** The compressed public key of a private scalar. */
    public static byte[] publicKey(byte[] scalar) {
        return DOMAIN.getG().multiply(new BigInteger(1, scalar)).normalize().getEncoded(true);
    }

    /** A fresh private scalar in [1, n) (ephemeral keys of handshakes). */
    static byte[] randomScalar(java.security.SecureRandom random) {
        while (true) {
            byte[] scalar = new byte[32];
            random.nextBytes(scalar);
            BigInteger value = new BigInteger(1, scalar);
            if (value.signum() > 0 && value.compareTo(DOMAIN.getN()) < 0) {
                return scalar;
            }
        }
    }

    /** Whether the bytes are a 33-byte compressed point of the curve. */
    static boolean isPublicKey(byte[] compressed) {
        try {
            point(compressed);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static ECPoint point(byte[] compressed) {
        if (compressed.length != PUBLIC_KEY_LENGTH || (compressed[0] != 2 && compressed[0] != 3)) {
            throw new IllegalArgumentException("not a 33-byte compressed secp256k1 key");
        }
        ECPoint point = DOMAIN.getCurve().decodePoint(compressed);
        if (point.isInfinity() || !point.isValid()) {
            throw new IllegalArgumentException("not a point of secp256k1");
        }
        return point;
    }

    private static byte[] idProofHash(byte[] challengeData, byte[] ephemeralPublicKey, byte[] destNodeId) {
        SHA256Digest digest = new SHA256Digest();
        byte[] input = concat(ID_PROOF_TEXT, challengeData, ephemeralPublicKey, destNodeId);
        digest.update(input, 0, input.length);
        byte[] out = new byte[32];
        digest.doFinal(out, 0);
        return out;
    }

    static byte[] concat(byte[]... parts) {
        int length = 0;
        for (byte[] part : parts) {
            length += part.length;
        }
        byte[] out = new byte[length];
        int at = 0;
        for (byte[] part : parts) {
            System.arraycopy(part, 0, out, at, part.length);
            at += part.length;
        }
        return out;
    }

    private static void writeUnsigned(BigInteger value, byte[] out, int offset) {
        byte[] bytes = value.toByteArray();
        int length = Math.min(bytes.length, 32);
        System.arraycopy(bytes, bytes.length - length, out, offset + 32 - length, length);
    }
}
