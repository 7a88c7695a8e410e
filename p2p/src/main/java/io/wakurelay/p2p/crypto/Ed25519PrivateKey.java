package io.wakurelay.p2p.crypto;

import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.MessageDigest;
import java.security.Signature;
import java.security.spec.EdECPrivateKeySpec;
import java.security.spec.NamedParameterSpec;
import java.util.Arrays;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;

/**
 * An Ed25519 private key: the 32-byte seed, signing with the JDK. The JDK has no way to derive the public key from
 * a seed, so BouncyCastle does that one step (RFC 8032 5.1.5).
 */
final class Ed25519PrivateKey extends PrivateKey {

    static final int SEED_LENGTH = 32;

    private final byte[] seed;
    private final Ed25519PublicKey publicKey;
    private final java.security.PrivateKey jdkKey;

    private Ed25519PrivateKey(byte[] seed, Ed25519PublicKey publicKey, java.security.PrivateKey jdkKey) {
        this.seed = seed;
        this.publicKey = publicKey;
        this.jdkKey = jdkKey;
    }

    static Ed25519PrivateKey fromSeed(byte[] seed) {
        byte[] publicBytes = new Ed25519PrivateKeyParameters(seed, 0).generatePublicKey().getEncoded();
        try {
            java.security.PrivateKey jdkKey = KeyFactory.getInstance("Ed25519")
                    .generatePrivate(new EdECPrivateKeySpec(NamedParameterSpec.ED25519, seed));
            return new Ed25519PrivateKey(seed, Ed25519PublicKey.fromRaw(publicBytes), jdkKey);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JDK since 15 has Ed25519", e);
        }
    }

    /** The protobuf Data: seed ‖ public key (64 bytes), or the older seed ‖ public key ‖ public key (96 bytes). */
    static Ed25519PrivateKey fromData(byte[] data) {
        if (data.length != 64 && data.length != 96) {
            throw new KeyFormatException("Ed25519 private key data is 64 (seed and public key) or 96 bytes, not "
                    + data.length);
        }
        byte[] publicBytes = Arrays.copyOfRange(data, 32, 64);
        if (data.length == 96 && !Arrays.equals(publicBytes, Arrays.copyOfRange(data, 64, 96))) {
            throw new KeyFormatException("96-byte Ed25519 private key data whose two public keys differ");
        }
        Ed25519PrivateKey key = fromSeed(Arrays.copyOf(data, SEED_LENGTH));
        // the stored public key would go into signatures' hashes in go-libp2p: one that is not the seed's is broken
        if (!MessageDigest.isEqual(key.publicKey.rawBytes(), publicBytes)) {
            throw new KeyFormatException("Ed25519 private key data whose public key is not that of its seed");
        }
        return key;
    }

    @Override
    public KeyType type() {
        return KeyType.ED25519;
    }

    @Override
    public PublicKey publicKey() {
        return publicKey;
    }

    @Override
    public byte[] sign(byte[] data) {
        try {
            Signature signer = Signature.getInstance("Ed25519");
            signer.initSign(jdkKey);
            signer.update(data);
            return signer.sign();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Ed25519 signing failed", e);
        }
    }

    @Override
    public byte[] raw() {
        byte[] data = Arrays.copyOf(seed, 64);
        System.arraycopy(publicKey.rawBytes(), 0, data, 32, 32);
        return data;
    }
}
