package io.wakurelay.p2p.crypto;

import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.Signature;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.X509EncodedKeySpec;

/**
 * An RSA public key in DER PKIX (SubjectPublicKeyInfo) form; signatures are RSASSA-PKCS1-v1_5 over SHA-256. Only
 * verification: we never sign with RSA. Moduli of 2048 to 8192 bits, the bounds go-libp2p enforces (peer-ids.md
 * itself names no size).
 */
final class RsaPublicKey extends PublicKey {

    static final int MIN_BITS = 2048;
    static final int MAX_BITS = 8192;

    private final RSAPublicKey jdkKey;

    private RsaPublicKey(byte[] raw, RSAPublicKey jdkKey) {
        super(KeyType.RSA, raw);
        this.jdkKey = jdkKey;
    }

    static RsaPublicKey fromRaw(byte[] raw) {
        java.security.PublicKey key;
        try {
            key = KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(raw));
        } catch (GeneralSecurityException | RuntimeException e) {
            throw new KeyFormatException("not a DER PKIX RSA public key", e);
        }
        if (!(key instanceof RSAPublicKey rsa)) {
            throw new KeyFormatException("not an RSA public key: " + key.getAlgorithm());
        }
        int bits = rsa.getModulus().bitLength();
        if (bits < MIN_BITS || bits > MAX_BITS) {
            throw new KeyFormatException("RSA keys of " + MIN_BITS + " to " + MAX_BITS + " bits only, not " + bits);
        }
        return new RsaPublicKey(raw, rsa);
    }

    @Override
    public boolean verify(byte[] data, byte[] signature) {
        if (signature == null) {
            return false;
        }
        try {
            Signature verifier = Signature.getInstance("SHA256withRSA");
            verifier.initVerify(jdkKey);
            verifier.update(data);
            return verifier.verify(signature);
        } catch (GeneralSecurityException | RuntimeException e) {
            return false;
        }
    }
}
