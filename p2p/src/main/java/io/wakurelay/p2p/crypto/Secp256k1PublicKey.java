package io.wakurelay.p2p.crypto;

import java.math.BigInteger;
import org.bouncycastle.crypto.params.ECPublicKeyParameters;
import org.bouncycastle.crypto.signers.ECDSASigner;
import org.bouncycastle.math.ec.ECPoint;

/**
 * A secp256k1 public key, kept as its 33-byte compressed point. Signatures are ECDSA over SHA-256 of the data in
 * strict DER. An uncompressed point is accepted on input (the Bitcoin encoding allows both, and go-libp2p and
 * js-libp2p accept it) and compressed, as they do, so the peer id is that of the compressed key.
 */
final class Secp256k1PublicKey extends PublicKey {

    private final ECPublicKeyParameters parameters;

    private Secp256k1PublicKey(ECPoint point) {
        super(KeyType.SECP256K1, point.getEncoded(true));
        this.parameters = new ECPublicKeyParameters(point, Secp256k1.DOMAIN);
    }

    static Secp256k1PublicKey fromRaw(byte[] raw) {
        return new Secp256k1PublicKey(Secp256k1.decodePoint(raw));
    }

    static Secp256k1PublicKey of(ECPoint point) {
        return new Secp256k1PublicKey(point.normalize());
    }

    /**
     * Verifies a strict DER signature. High-S signatures are accepted, as go-libp2p accepts them: the spec
     * does not ask a verifier to refuse them, and every libp2p implementation signs with low S anyway.
     */
    @Override
    public boolean verify(byte[] data, byte[] signature) {
        BigInteger[] rs = Secp256k1.decodeDer(signature);
        if (rs == null) {
            return false;
        }
        ECDSASigner verifier = new ECDSASigner();
        verifier.init(false, parameters);
        return verifier.verifySignature(Secp256k1.sha256(data), rs[0], rs[1]);
    }
}
