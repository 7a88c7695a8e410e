package io.wakurelay.discovery.enr;

import org.bouncycastle.crypto.params.ECDomainParameters;

/**
 * The "v4" scheme's secp256k1 signatures and Keccak-256 for other signed formats of the discovery module (EIP-1459's
 * tree root is signed the same way as a record: secp256k1 over the Keccak-256 of its text).
 */
public final class Secp256k1Signatures {
    private Secp256k1Signatures() {
    }

    /** secp256k1's domain parameters (BouncyCastle's), for discovery's other uses of the curve (discv5's handshake). */
    public static ECDomainParameters curve() {
        return V4Identity.DOMAIN;
    }

    public static byte[] keccak256(byte[] data) {
        return V4Identity.keccak256(data);
    }

    /** Whether the 64 bytes r ‖ s (low s) are {@code compressedKey}'s signature of Keccak-256({@code content}). */
    public static boolean verify(byte[] content, byte[] signature, byte[] compressedKey) {
        return V4Identity.verify(content, signature, compressedKey);
    }

    /** The 64-byte signature r ‖ s of Keccak-256({@code content}) by the 32-byte private scalar (RFC 6979 nonce). */
    public static byte[] sign(byte[] content, byte[] privateScalar) {
        return V4Identity.sign(content, privateScalar);
    }

    /** The 33-byte compressed public key of a 32-byte private scalar. */
    public static byte[] publicKey(byte[] privateScalar) {
        return V4Identity.publicKey(privateScalar);
    }

    /** Whether the 33 bytes are a compressed point of the curve. */
    public static boolean isPublicKey(byte[] compressedKey) {
        try {
            V4Identity.point(compressedKey);
            return true;
        } catch (EnrFormatException e) {
            return false;
        }
    }
}
