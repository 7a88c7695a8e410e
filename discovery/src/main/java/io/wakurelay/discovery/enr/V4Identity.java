package io.wakurelay.discovery.enr;

import java.math.BigInteger;
import java.util.Arrays;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.crypto.digests.KeccakDigest;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.crypto.params.ECDomainParameters;
import org.bouncycastle.crypto.params.ECPrivateKeyParameters;
import org.bouncycastle.crypto.params.ECPublicKeyParameters;
import org.bouncycastle.crypto.signers.ECDSASigner;
import org.bouncycastle.crypto.signers.HMacDSAKCalculator;
import org.bouncycastle.math.ec.ECPoint;

/**
 * EIP-778's "v4" identity scheme: the record's content is signed with secp256k1 ECDSA over its Keccak-256 hash, the
 * signature written as the 64 bytes r ‖ s; the public key is the 33-byte compressed point under key
 * {@code secp256k1}; the node id is the Keccak-256 of the uncompressed point's 64 bytes x ‖ y. The nonce is
 * RFC 6979's (HMAC-SHA256), as libsecp256k1 derives it, so our signatures are the ones go-ethereum and nim-eth
 * would make for the same content; s is kept in the lower half, and a verifier here refuses a high s as
 * go-ethereum does (a record has exactly one valid signature).
 */
final class V4Identity {

    static final String ID = "v4";
    static final int SIGNATURE_LENGTH = 64;
    static final int COMPRESSED_KEY_LENGTH = 33;

    static final ECDomainParameters DOMAIN;
    private static final BigInteger HALF_N;

    static {
        X9ECParameters curve = CustomNamedCurves.getByName("secp256k1");
        DOMAIN = new ECDomainParameters(curve.getCurve(), curve.getG(), curve.getN(), curve.getH());
        HALF_N = DOMAIN.getN().shiftRight(1);
    }

    private V4Identity() {
    }

    static byte[] keccak256(byte[] data) {
        KeccakDigest digest = new KeccakDigest(256);
        digest.update(data, 0, data.length);
        byte[] out = new byte[32];
        digest.doFinal(out, 0);
        return out;
    }

    /** The 64-byte signature of {@code content} by the secp256k1 private key {@code scalar} (32 bytes). */
    static byte[] sign(byte[] content, byte[] scalar) {
        ECDSASigner signer = new ECDSASigner(new HMacDSAKCalculator(new SHA256Digest()));
        signer.init(true, new ECPrivateKeyParameters(new BigInteger(1, scalar), DOMAIN));
        BigInteger[] rs = signer.generateSignature(keccak256(content));
        BigInteger s = rs[1].compareTo(HALF_N) > 0 ? DOMAIN.getN().subtract(rs[1]) : rs[1];
        byte[] signature = new byte[SIGNATURE_LENGTH];
        writeUnsigned(rs[0], signature, 0);
        writeUnsigned(s, signature, 32);
        return signature;
    }

    /** Whether {@code signature} (r ‖ s, low s) is {@code compressedKey}'s signature of {@code content}. */
    static boolean verify(byte[] content, byte[] signature, byte[] compressedKey) {
        if (signature.length != SIGNATURE_LENGTH) {
            return false;
        }
        BigInteger r = new BigInteger(1, Arrays.copyOfRange(signature, 0, 32));
        BigInteger s = new BigInteger(1, Arrays.copyOfRange(signature, 32, 64));
        if (r.signum() == 0 || r.compareTo(DOMAIN.getN()) >= 0 || s.signum() == 0 || s.compareTo(HALF_N) > 0) {
            return false;
        }
        ECDSASigner verifier = new ECDSASigner();
        verifier.init(false, new ECPublicKeyParameters(point(compressedKey), DOMAIN));
        return verifier.verifySignature(keccak256(content), r, s);
    }

    /** The 32-byte node id of a compressed public key. */
    static byte[] nodeId(byte[] compressedKey) {
        byte[] uncompressed = point(compressedKey).getEncoded(false);
        return keccak256(Arrays.copyOfRange(uncompressed, 1, uncompressed.length));
    }

    /** The compressed public key of a private scalar. */
    static byte[] publicKey(byte[] scalar) {
        return DOMAIN.getG().multiply(new BigInteger(1, scalar)).normalize().getEncoded(true);
    }

    /** A point of the curve from its 33-byte compressed encoding; an {@link EnrFormatException} otherwise. */
    static ECPoint point(byte[] compressedKey) {
        if (compressedKey.length != COMPRESSED_KEY_LENGTH || (compressedKey[0] != 2 && compressedKey[0] != 3)) {
            throw new EnrFormatException("a v4 record's secp256k1 key is a 33-byte compressed point, not "
                    + compressedKey.length + " bytes");
        }
        try {
            ECPoint point = DOMAIN.getCurve().decodePoint(compressedKey);
            if (point.isInfinity() || !point.isValid()) {
                throw new EnrFormatException("the record's secp256k1 key is not a point of the curve");
            }
            return point.normalize();
        } catch (IllegalArgumentException e) {
            throw new EnrFormatException("the record's secp256k1 key is not a point of the curve", e);
        }
    }

    private static void writeUnsigned(BigInteger value, byte[] out, int offset) {
        byte[] bytes = value.toByteArray();
        int length = Math.min(bytes.length, 32);
        System.arraycopy(bytes, bytes.length - length, out, offset + 32 - length, length);
    }
}
