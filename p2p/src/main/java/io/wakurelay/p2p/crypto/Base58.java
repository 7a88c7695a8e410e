package io.wakurelay.p2p.crypto;

/** Base58 with the Bitcoin alphabet (base58btc): how peer ids are written ({@code 12D3KooW…}, {@code Qm…}). */
public final class Base58 {

    private static final RadixCodec CODEC = new RadixCodec("base58btc",
            "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz");

    private Base58() {
    }

    public static String encode(byte[] bytes) {
        return CODEC.encode(bytes);
    }

    /** The bytes; a {@link KeyFormatException} for a character outside the alphabet or an overlong text. */
    public static byte[] decode(CharSequence text) {
        return CODEC.decode(text);
    }
}
