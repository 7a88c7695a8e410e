package io.wakurelay.p2p.crypto;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.Signature;
import java.security.spec.EdECPoint;
import java.security.spec.EdECPublicKeySpec;
import java.security.spec.NamedParameterSpec;

/** An Ed25519 public key: 32 bytes as RFC 8032 encodes them; signatures are plain RFC 8032 Ed25519 (JDK). */
final class Ed25519PublicKey extends PublicKey {

    static final int LENGTH = 32;

    private final java.security.PublicKey jdkKey;

    private Ed25519PublicKey(byte[] raw, java.security.PublicKey jdkKey) {
        super(KeyType.ED25519, raw);
        this.jdkKey = jdkKey;
    }

    static Ed25519PublicKey fromRaw(byte[] raw) {
        if (raw.length != LENGTH) {
            throw new KeyFormatException("an Ed25519 public key has 32 bytes, not " + raw.length);
        }
        try {
            KeyFactory factory = KeyFactory.getInstance("Ed25519");
            return new Ed25519PublicKey(raw, factory.generatePublic(new EdECPublicKeySpec(NamedParameterSpec.ED25519,
                    point(raw))));
        } catch (GeneralSecurityException e) {
            throw new KeyFormatException("not an Ed25519 public key", e);
        }
    }

    /** RFC 8032 5.1.2: y little-endian in the low 255 bits, the sign of x in the top bit. */
    private static EdECPoint point(byte[] raw) {
        byte[] bigEndian = new byte[LENGTH];
        for (int i = 0; i < LENGTH; i++) {
            bigEndian[i] = raw[LENGTH - 1 - i];
        }
        boolean xOdd = (bigEndian[0] & 0x80) != 0;
        bigEndian[0] &= 0x7f;
        return new EdECPoint(xOdd, new BigInteger(1, bigEndian));
    }

    @Override
    public boolean verify(byte[] data, byte[] signature) {
        if (signature == null || signature.length != 64) {
            return false;
        }
        try {
            Signature verifier = Signature.getInstance("Ed25519");
            verifier.initVerify(jdkKey);
            verifier.update(data);
            return verifier.verify(signature);
        } catch (GeneralSecurityException | RuntimeException e) {
            // the JDK throws for some malformed points and signatures: they are bad signatures
            return false;
        }
    }
}
