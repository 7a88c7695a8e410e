package io.wakurelay.p2p.crypto;

import java.math.BigInteger;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.crypto.params.ECDomainParameters;
import org.bouncycastle.math.ec.ECPoint;

/**
 * The secp256k1 curve (BouncyCastle's lightweight API: the JDK dropped the curve in Java 16) and the Bitcoin
 * encodings peer-ids.md names: SEC1 points and strict DER signatures (BIP 62 / BIP 66).
 */
final class Secp256k1 {

    static final ECDomainParameters DOMAIN;
    static final BigInteger N;
    static final BigInteger HALF_N;
    static final int COMPRESSED_LENGTH = 33;
    static final int UNCOMPRESSED_LENGTH = 65;

    static {
        X9ECParameters curve = CustomNamedCurves.getByName("secp256k1");
        DOMAIN = new ECDomainParameters(curve.getCurve(), curve.getG(), curve.getN(), curve.getH());
        N = DOMAIN.getN();
        HALF_N = N.shiftRight(1);
    }

    private Secp256k1() {
    }

    /**
     * A SEC1 point: 33 bytes compressed (02/03) or 65 bytes uncompressed (04), both "standard Bitcoin" encodings.
     * Hybrid encodings (06/07) and the point at infinity are refused.
     */
    static ECPoint decodePoint(byte[] encoded) {
        boolean compressed = encoded.length == COMPRESSED_LENGTH && (encoded[0] == 0x02 || encoded[0] == 0x03);
        boolean uncompressed = encoded.length == UNCOMPRESSED_LENGTH && encoded[0] == 0x04;
        if (!compressed && !uncompressed) {
            throw new KeyFormatException("a secp256k1 public key is a 33-byte compressed or 65-byte uncompressed "
                    + "SEC1 point, not " + encoded.length + " bytes starting with " + (encoded.length == 0 ? "nothing"
                    : String.format("0x%02x", encoded[0])));
        }
        try {
            ECPoint point = DOMAIN.getCurve().decodePoint(encoded);
            if (point.isInfinity() || !point.isValid()) {
                throw new KeyFormatException("not a point of secp256k1");
            }
            return point.normalize();
        } catch (IllegalArgumentException e) {
            throw new KeyFormatException("not a point of secp256k1", e);
        }
    }

    /** The canonical DER signature {@code SEQUENCE { INTEGER r, INTEGER s }}. */
    static byte[] encodeDer(BigInteger r, BigInteger s) {
        byte[] rBytes = r.toByteArray(); // minimal two's complement: a leading zero only when the top bit is set
        byte[] sBytes = s.toByteArray();
        byte[] der = new byte[6 + rBytes.length + sBytes.length];
        der[0] = 0x30;
        der[1] = (byte) (4 + rBytes.length + sBytes.length);
        der[2] = 0x02;
        der[3] = (byte) rBytes.length;
        System.arraycopy(rBytes, 0, der, 4, rBytes.length);
        der[4 + rBytes.length] = 0x02;
        der[5 + rBytes.length] = (byte) sBytes.length;
        System.arraycopy(sBytes, 0, der, 6 + rBytes.length, sBytes.length);
        return der;
    }

    /**
     * r and s of a strict DER signature (BIP 66: short lengths, no padding, positive integers), each in
     * [1, n-1]; null for anything else.
     */
    static BigInteger[] decodeDer(byte[] der) {
        if (der == null || der.length < 8 || der.length > 72) {
            return null;
        }
        if (der[0] != 0x30 || (der[1] & 0xff) != der.length - 2 || der[2] != 0x02) {
            return null;
        }
        int rLength = der[3] & 0xff;
        if (rLength == 0 || 5 + rLength >= der.length || der[4 + rLength] != 0x02) {
            return null;
        }
        int sLength = der[5 + rLength] & 0xff;
        if (sLength == 0 || 6 + rLength + sLength != der.length) {
            return null;
        }
        BigInteger r = strictInteger(der, 4, rLength);
        BigInteger s = strictInteger(der, 6 + rLength, sLength);
        if (r == null || s == null) {
            return null;
        }
        return new BigInteger[] {r, s};
    }

    private static BigInteger strictInteger(byte[] der, int offset, int length) {
        if ((der[offset] & 0x80) != 0) {
            return null; // negative
        }
        if (length > 1 && der[offset] == 0 && (der[offset + 1] & 0x80) == 0) {
            return null; // padded
        }
        BigInteger value = new BigInteger(1, java.util.Arrays.copyOfRange(der, offset, offset + length));
        return value.signum() > 0 && value.compareTo(N) < 0 ? value : null;
    }

    static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
