package io.wakurelay.p2p.crypto;

/** The libp2p key types, with the codes of the {@code KeyType} enum in peer-ids.md. */
public enum KeyType {
    RSA(0),
    ED25519(1),
    SECP256K1(2),
    ECDSA(3);

    private final int code;

    KeyType(int code) {
        this.code = code;
    }

    /** The protobuf enum value. */
    public int code() {
        return code;
    }

    /** The key type for a protobuf enum value; a {@link KeyFormatException} for any other number. */
    public static KeyType of(int code) {
        for (KeyType type : values()) {
            if (type.code == code) {
                return type;
            }
        }
        throw new KeyFormatException("unknown key type " + code);
    }
}
