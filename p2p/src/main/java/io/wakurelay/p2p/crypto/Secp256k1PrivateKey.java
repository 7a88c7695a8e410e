package io.wakurelay.p2p.crypto;

import java.math.BigInteger;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.params.ECPrivateKeyParameters;
import org.bouncycastle.crypto.signers.ECDSASigner;
import org.bouncycastle.crypto.signers.HMacDSAKCalculator;
import org.bouncycastle.math.ec.FixedPointCombMultiplier;

/**
 * A secp256k1 private key: a scalar in [1, n-1]. Signs the SHA-256 of the data with ECDSA, the nonce derived by
 * RFC 6979 (so signatures are deterministic, as go-libp2p's, js-libp2p's and nim-libp2p's are) and S normalised
 * to the lower half (BIP 62), in strict DER.
 */
final class Secp256k1PrivateKey extends PrivateKey {

    static final int LENGTH = 32;

    private final BigInteger scalar;
    private final Secp256k1PublicKey publicKey;

    private Secp256k1PrivateKey(BigInteger scalar) {
        this.scalar = scalar;
        this.publicKey = Secp256k1PublicKey.of(new FixedPointCombMultiplier().multiply(Secp256k1.DOMAIN.getG(),
                scalar));
    }

    static Secp256k1PrivateKey fromScalar(byte[] bigEndian) {
        if (bigEndian.length != LENGTH) {
            throw new KeyFormatException("a secp256k1 private key has 32 bytes, not " + bigEndian.length);
        }
        BigInteger scalar = unsigned(bigEndian);
        if (scalar.signum() == 0) {
            throw new KeyFormatException("a secp256k1 private key cannot be zero");
        }
        if (scalar.compareTo(Secp256k1.N) >= 0) {
            throw new KeyFormatException("a secp256k1 private key must be less than the curve order "
                    + "n = 0x" + Secp256k1.N.toString(16));
        }
        return new Secp256k1PrivateKey(scalar);
    }

    static Secp256k1PrivateKey generate() {
        byte[] candidate = new byte[LENGTH];
        while (true) { // a random 256-bit number is at least n with probability 2^-128
            RANDOM.nextBytes(candidate);
            BigInteger scalar = unsigned(candidate);
            if (scalar.signum() > 0 && scalar.compareTo(Secp256k1.N) < 0) {
                return new Secp256k1PrivateKey(scalar);
            }
        }
    }

    @Override
    public KeyType type() {
        return KeyType.SECP256K1;
    }

    @Override
    public PublicKey publicKey() {
        return publicKey;
    }

    @Override
    public byte[] sign(byte[] data) {
        ECDSASigner signer = new ECDSASigner(new HMacDSAKCalculator(new SHA256Digest()));
        signer.init(true, new ECPrivateKeyParameters(scalar, Secp256k1.DOMAIN));
        BigInteger[] rs = signer.generateSignature(Secp256k1.sha256(data));
        BigInteger s = rs[1].compareTo(Secp256k1.HALF_N) > 0 ? Secp256k1.N.subtract(rs[1]) : rs[1];
        return Secp256k1.encodeDer(rs[0], s);
    }

    @Override
    public byte[] raw() {
        byte[] twosComplement = scalar.toByteArray();
        byte[] raw = new byte[LENGTH];
        int length = Math.min(twosComplement.length, LENGTH);
        System.arraycopy(twosComplement, twosComplement.length - length, raw, LENGTH - length, length);
        return raw;
    }
}
