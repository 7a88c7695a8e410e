package io.wakurelay.p2p.crypto;

import java.math.BigInteger;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * A libp2p identity private key: Ed25519 (js-libp2p's default) or secp256k1 (nwaku's node keys). Signs by the
 * rules of peer-ids.md; {@link #marshal()} gives the {@code PrivateKey} protobuf that go-libp2p and js-libp2p
 * store on disk. Immutable and thread safe; {@link #toString()} never shows key material.
 */
public abstract sealed class PrivateKey permits Ed25519PrivateKey, Secp256k1PrivateKey {

    static final SecureRandom RANDOM = new SecureRandom();

    PrivateKey() {
    }

    /** The key type. */
    public abstract KeyType type();

    /** The public half. */
    public abstract PublicKey publicKey();

    /** This key's signature of {@code data}, by the signing rules of its type (deterministic for both types). */
    public abstract byte[] sign(byte[] data);

    /**
     * The protobuf Data field: for Ed25519 the 64 bytes seed ‖ public key, as go-libp2p and js-libp2p write them;
     * for secp256k1 the 32-byte big-endian scalar.
     */
    public abstract byte[] raw();

    /** The {@code PrivateKey} protobuf (type, then data). */
    public final byte[] marshal() {
        return KeyEnvelope.encodePrivate(type(), raw());
    }

    /**
     * The key in a {@code PrivateKey} protobuf. Ed25519 Data of 64 bytes (seed ‖ public key) or the older 96 bytes
     * (seed ‖ public key ‖ public key) is accepted when the public key is the seed's; secp256k1 Data is 32 bytes.
     * RSA and ECDSA private keys are refused: this node never signs with them.
     */
    public static PrivateKey unmarshal(byte[] marshalled) {
        KeyEnvelope.Decoded decoded = KeyEnvelope.decodePrivate(marshalled);
        return switch (decoded.type()) {
            case ED25519 -> Ed25519PrivateKey.fromData(decoded.data());
            case SECP256K1 -> Secp256k1PrivateKey.fromScalar(decoded.data());
            case RSA, ECDSA -> throw new KeyFormatException(decoded.type() + " private keys are not supported");
        };
    }

    /** A new random Ed25519 key. */
    public static PrivateKey generateEd25519() {
        byte[] seed = new byte[Ed25519PrivateKey.SEED_LENGTH];
        RANDOM.nextBytes(seed);
        return Ed25519PrivateKey.fromSeed(seed);
    }

    /** A new random secp256k1 key. */
    public static PrivateKey generateSecp256k1() {
        return Secp256k1PrivateKey.generate();
    }

    /** The secp256k1 key with this 32-byte big-endian scalar, which must be in [1, n-1]. */
    public static PrivateKey secp256k1(byte[] scalar32) {
        return Secp256k1PrivateKey.fromScalar(scalar32.clone());
    }

    /** The Ed25519 key with this 32-byte RFC 8032 seed (the private key proper). */
    public static PrivateKey ed25519Seed(byte[] seed32) {
        if (seed32.length != Ed25519PrivateKey.SEED_LENGTH) {
            throw new KeyFormatException("an Ed25519 seed has 32 bytes, not " + seed32.length);
        }
        return Ed25519PrivateKey.fromSeed(seed32.clone());
    }

    /**
     * The secp256k1 key written as nwaku's {@code --nodekey} takes it: 64 hex digits, optionally after {@code 0x}.
     * The scalar must be neither zero nor at least the curve order.
     */
    public static PrivateKey secp256k1Hex(String hex) {
        String digits = hex.strip();
        if (digits.startsWith("0x") || digits.startsWith("0X")) {
            digits = digits.substring(2);
        }
        if (digits.length() != 64) {
            throw new KeyFormatException("a secp256k1 node key is 64 hex digits (32 bytes), not " + digits.length()
                    + " characters");
        }
        byte[] scalar;
        try {
            scalar = HexFormat.of().parseHex(digits);
        } catch (IllegalArgumentException e) {
            throw new KeyFormatException("a secp256k1 node key is 64 hex digits; it has a character that is not one");
        }
        return Secp256k1PrivateKey.fromScalar(scalar);
    }

    @Override
    public final boolean equals(Object other) {
        // constant time: the comparison must not tell how much of a key an attacker guessed
        return other instanceof PrivateKey key && key.type() == type() && MessageDigest.isEqual(key.raw(), raw());
    }

    @Override
    public final int hashCode() {
        return publicKey().hashCode();
    }

    @Override
    public final String toString() {
        return type().name().toLowerCase(java.util.Locale.ROOT) + " private key of "
                + PeerId.fromPublicKey(publicKey());
    }

    static BigInteger unsigned(byte[] bigEndian) {
        return new BigInteger(1, bigEndian);
    }
}
