package io.wakurelay.p2p.multiaddr;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The text of an {@code /http-path} value (multiformats/multiaddr protocols/http-path.md): one RFC 3986 path
 * segment, so that a '/' inside the path cannot end the multiaddr component. We escape every byte but the
 * unreserved characters; on input any percent escape is read and every other character is literal. The binary
 * value is the path itself.
 */
final class HttpPathText {

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private HttpPathText() {
    }

    static String escape(byte[] path) {
        if (path.length == 0) {
            throw new MultiaddrFormatException("an empty http-path");
        }
        StringBuilder text = new StringBuilder(path.length * 3);
        for (byte b : path) {
            int c = b & 0xff;
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_'
                    || c == '.' || c == '~') {
                text.append((char) c);
            } else {
                text.append('%').append(HEX[c >>> 4]).append(HEX[c & 15]);
            }
        }
        return text.toString();
    }

    static byte[] unescape(String text) {
        ByteArrayOutputStream path = new ByteArrayOutputStream(text.length());
        for (int i = 0; i < text.length(); ) {
            int c = text.codePointAt(i);
            if (c == '%') {
                int high = i + 2 < text.length() ? hexDigit(text.charAt(i + 1)) : -1;
                int low = i + 2 < text.length() ? hexDigit(text.charAt(i + 2)) : -1;
                if (high < 0 || low < 0) {
                    throw new MultiaddrFormatException("a malformed percent escape in the http-path '" + text + "'");
                }
                path.write(high << 4 | low);
                i += 3;
            } else {
                path.writeBytes(new String(Character.toChars(c)).getBytes(StandardCharsets.UTF_8));
                i += Character.charCount(c);
            }
        }
        if (path.size() == 0) {
            throw new MultiaddrFormatException("an empty http-path");
        }
        return path.toByteArray();
    }

    private static int hexDigit(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        return c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    }
}
