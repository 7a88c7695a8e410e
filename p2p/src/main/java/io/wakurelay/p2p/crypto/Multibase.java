package io.wakurelay.p2p.crypto;

import java.io.ByteArrayOutputStream;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;

/**
 * Multibase text (multiformats/multibase): one prefix character naming the base, then the data. Decodes the bases
 * peer id CIDs and multiaddr certificate hashes come in: base16 (f/F), base32 (b/B), base36 (k/K), base58btc (z),
 * base64 (m), base64url (u) and the padded base64 variants (M/U).
 */
public final class Multibase {

    private static final String BASE32 = "abcdefghijklmnopqrstuvwxyz234567";
    private static final RadixCodec BASE36 = new RadixCodec("base36", "0123456789abcdefghijklmnopqrstuvwxyz");

    private Multibase() {
    }

    /** The data of a multibase text; a {@link KeyFormatException} for an unknown prefix or malformed data. */
    public static byte[] decode(String text) {
        if (text.isEmpty()) {
            throw new KeyFormatException("empty multibase text");
        }
        String data = text.substring(1);
        try {
            return switch (text.charAt(0)) {
                case 'f' -> hex(data, false);
                case 'F' -> hex(data, true);
                case 'b' -> base32(data);
                case 'B' -> base32(upperOnly(data).toLowerCase(Locale.ROOT));
                case 'k' -> BASE36.decode(data);
                case 'K' -> BASE36.decode(upperOnly(data).toLowerCase(Locale.ROOT));
                case 'z' -> Base58.decode(data);
                case 'm' -> Base64.getDecoder().decode(noPadding(data));
                case 'M' -> Base64.getDecoder().decode(data);
                case 'u' -> Base64.getUrlDecoder().decode(noPadding(data));
                case 'U' -> Base64.getUrlDecoder().decode(data);
                default -> throw new KeyFormatException("unknown or unsupported multibase prefix '" + text.charAt(0)
                        + "'");
            };
        } catch (IllegalArgumentException e) {
            throw new KeyFormatException("malformed multibase text: " + e.getMessage(), e);
        }
    }

    /** Base32 (RFC 4648, lower case, no padding) with prefix {@code b}: how CIDs are written by default. */
    public static String encodeBase32(byte[] data) {
        StringBuilder text = new StringBuilder(1 + (data.length * 8 + 4) / 5).append('b');
        int buffer = 0;
        int bits = 0;
        for (byte b : data) {
            buffer = (buffer << 8) | (b & 0xff);
            bits += 8;
            while (bits >= 5) {
                text.append(BASE32.charAt((buffer >>> (bits - 5)) & 31));
                bits -= 5;
            }
        }
        if (bits > 0) {
            text.append(BASE32.charAt((buffer << (5 - bits)) & 31));
        }
        return text.toString();
    }

    /** Base64url (RFC 4648, no padding) with prefix {@code u}: how multiaddr certificate hashes are written. */
    public static String encodeBase64Url(byte[] data) {
        return 'u' + Base64.getUrlEncoder().withoutPadding().encodeToString(data);
    }

    private static byte[] hex(String data, boolean upper) {
        if (!data.equals(upper ? data.toUpperCase(Locale.ROOT) : data.toLowerCase(Locale.ROOT))) {
            throw new KeyFormatException("base16 text in the wrong case for its prefix");
        }
        return HexFormat.of().parseHex(data);
    }

    private static String upperOnly(String data) {
        if (!data.equals(data.toUpperCase(Locale.ROOT))) {
            throw new KeyFormatException("upper-case multibase text with lower-case characters");
        }
        return data;
    }

    private static String noPadding(String data) {
        if (data.indexOf('=') >= 0) {
            throw new KeyFormatException("padding in an unpadded base64 multibase text");
        }
        return data;
    }

    private static byte[] base32(String data) {
        int remainder = data.length() % 8;
        if (remainder == 1 || remainder == 3 || remainder == 6) {
            throw new KeyFormatException("base32 text of impossible length " + data.length());
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(data.length() * 5 / 8);
        int buffer = 0;
        int bits = 0;
        for (int i = 0; i < data.length(); i++) {
            int value = BASE32.indexOf(data.charAt(i));
            if (value < 0) {
                throw new KeyFormatException("'" + data.charAt(i) + "' is not a base32 character");
            }
            buffer = (buffer << 5) | value;
            bits += 5;
            if (bits >= 8) {
                out.write((buffer >>> (bits - 8)) & 0xff);
                bits -= 8;
            }
        }
        if ((buffer & ((1 << bits) - 1)) != 0) {
            throw new KeyFormatException("base32 text with non-zero trailing bits");
        }
        return out.toByteArray();
    }
}
