package io.wakurelay.p2p.crypto;

import java.util.Arrays;

/**
 * A libp2p public key (peer-ids.md "Keys"): the type and its {@link #raw() Data} bytes, which
 * {@link #marshal()} wraps in the deterministic {@code PublicKey} protobuf that peer ids hash. Immutable and thread
 * safe.
 */
public abstract sealed class PublicKey permits Ed25519PublicKey, Secp256k1PublicKey, RsaPublicKey, EcdsaPublicKey {

    private final KeyType type;
    private final byte[] raw;
    private final byte[] marshalled;

    PublicKey(KeyType type, byte[] raw) {
        this.type = type;
        this.raw = raw;
        this.marshalled = KeyEnvelope.encodePublic(type, raw);
    }

    /** The key type. */
    public final KeyType type() {
        return type;
    }

    /**
     * The protobuf Data field: the 32-byte Ed25519 key, the 33-byte compressed secp256k1 point, or the DER PKIX
     * SubjectPublicKeyInfo of an RSA or ECDSA key.
     */
    public final byte[] raw() {
        return raw.clone();
    }

    /**
     * Whether {@code signature} is this key's signature of {@code data}, by the signing rules of the key type.
     * False for any signature that does not verify, including malformed signature bytes; never throws for those.
     */
    public abstract boolean verify(byte[] data, byte[] signature);

    /** The deterministic {@code PublicKey} protobuf (type, then data). */
    public final byte[] marshal() {
        return marshalled.clone();
    }

    /** The key in a {@code PublicKey} protobuf; a {@link KeyFormatException} for anything malformed. */
    public static PublicKey unmarshal(byte[] marshalled) {
        KeyEnvelope.Decoded decoded = KeyEnvelope.decodePublic(marshalled);
        return of(decoded.type(), decoded.data());
    }

    /** The key of the given type with the given protobuf Data bytes. */
    public static PublicKey of(KeyType type, byte[] raw) {
        byte[] copy = raw.clone();
        return switch (type) {
            case ED25519 -> Ed25519PublicKey.fromRaw(copy);
            case SECP256K1 -> Secp256k1PublicKey.fromRaw(copy);
            case RSA -> RsaPublicKey.fromRaw(copy);
            case ECDSA -> EcdsaPublicKey.fromRaw(copy);
        };
    }

    /** The raw bytes without a copy, for this package. */
    final byte[] rawBytes() {
        return raw;
    }

    @Override
    public final boolean equals(Object other) {
        return other instanceof PublicKey key && key.type == type && Arrays.equals(key.raw, raw);
    }

    @Override
    public final int hashCode() {
        return 31 * type.hashCode() + Arrays.hashCode(raw);
    }

    @Override
    public final String toString() {
        return type.name().toLowerCase(java.util.Locale.ROOT) + " public key of " + PeerId.fromPublicKey(this);
    }
}
