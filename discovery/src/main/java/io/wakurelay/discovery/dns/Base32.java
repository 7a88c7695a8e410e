package io.wakurelay.discovery.dns;

import io.wakurelay.p2p.crypto.Multibase;

import java.io.ByteArrayOutputStream;
import java.util.Locale;

/**
 * RFC 4648 base32 without padding, as EIP-1459 writes the tree's public key and its hashes. Decoding takes either
 * case (DNS names are case-insensitive) and refuses padding, other characters and non-zero trailing bits.
 */
final class Base32 {
    private static final String ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

    private Base32() {
    }

    /** RFC 4648's base32 in upper case without padding: p2p's multibase text without its prefix. */
    static String encode(byte[] data) {
        return Multibase.encodeBase32(data).substring(1).toUpperCase(Locale.ROOT);
    }

    /** The bytes of {@code text}; an {@link IllegalArgumentException} naming what is wrong otherwise. */
    static byte[] decode(String text) {
        String upper = text.toUpperCase(Locale.ROOT);
        ByteArrayOutputStream out = new ByteArrayOutputStream(upper.length() * 5 / 8);
        int buffer = 0;
        int bits = 0;
        for (int i = 0; i < upper.length(); i++) {
            int value = ALPHABET.indexOf(upper.charAt(i));
            if (value < 0) {
                throw new IllegalArgumentException("not base32: '" + text.charAt(i) + "' at " + i);
            }
            buffer = (buffer << 5) | value;
            bits += 5;
            if (bits >= 8) {
                out.write((buffer >> (bits - 8)) & 0xff);
                bits -= 8;
            }
            buffer &= (1 << bits) - 1;
        }
        if (bits >= 5 || buffer != 0) {
            throw new IllegalArgumentException("not canonical base32 (trailing bits): " + text);
        }
        return out.toByteArray();
    }
}
