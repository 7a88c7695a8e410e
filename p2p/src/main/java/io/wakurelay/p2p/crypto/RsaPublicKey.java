package io.wakurelay.p2p.crypto;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.Signature;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.X509EncodedKeySpec;

/**
 * An RSA public key in DER PKIX (SubjectPublicKeyInfo) form; signatures are RSASSA-PKCS1-v1_5 over SHA-256. Only
 * verification: we never sign with RSA.
 *
 * <p>A peer chooses its key, and each handshake verifies a signature with it on an event loop, so the key's size and
 * exponent are bounded by what that costs ({@code JdkVerifyCostBenchmark}, JDK 17 on 2 cores of an AMD EPYC: 35 µs
 * for 2048 bits and 65537; 0.24 ms for 4096 bits and 2^31 - 1; 0.92 ms for 8192 bits and 2^31 - 1, 1.8 ms with
 * 2^64 - 1; 10 ms for 3072 bits and an exponent as long, issue 27's G4; Temurin 25 the same). Moduli of 2048 bits
 * (peer-ids.md's minimum) to 4096: go-libp2p allows 8192, which with the exponents it allows costs about a
 * millisecond before the handshake's own work, where 4096 costs less than an honest Ed25519 key (0.62 ms). Odd
 * exponents from 3 to 2^31 - 1, the range Go's crypto/rsa accepts, so that no key a go-libp2p peer can verify is
 * refused for its exponent (every libp2p implementation generates 65537).
 */
final class RsaPublicKey extends PublicKey {

    static final int MIN_BITS = 2048;
    static final int MAX_BITS = 4096;
    static final BigInteger MAX_EXPONENT = BigInteger.valueOf(Integer.MAX_VALUE);
    private static final BigInteger THREE = BigInteger.valueOf(3);

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
            throw new KeyRefusedException("RSA keys of " + MIN_BITS + " to " + MAX_BITS + " bits only, not " + bits);
        }
        BigInteger e = rsa.getPublicExponent();
        if (!e.testBit(0) || e.compareTo(THREE) < 0 || e.compareTo(MAX_EXPONENT) > 0) {
            throw new KeyRefusedException("RSA public exponents are odd, from 3 to 2^31 - 1; this one "
                    + (e.bitLength() > 64 ? "has " + e.bitLength() + " bits" : "is " + e));
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
