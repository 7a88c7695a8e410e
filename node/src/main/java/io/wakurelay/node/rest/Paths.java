package io.wakurelay.node.rest;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/** Path handling: topics travel percent-encoded in one path segment ({@code %2Fwaku%2F2%2Frs%2F0%2F0}). */
final class Paths {
    private Paths() {
    }

    /** The path of a request URI, still percent-encoded, without the query. */
    static String rawPath(String uri) {
        int q = uri.indexOf('?');
        return q < 0 ? uri : uri.substring(0, q);
    }

    /** Decodes %XX escapes as UTF-8 (a '+' stays a '+', as in paths); a bad escape is a 400. */
    static String decode(String raw) {
        if (raw.indexOf('%') < 0) {
            return raw;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '%') {
                if (i + 2 >= raw.length()) {
                    throw HttpError.badRequest("the path ends in an incomplete %-escape");
                }
                int hi = Character.digit(raw.charAt(i + 1), 16);
                int lo = Character.digit(raw.charAt(i + 2), 16);
                if (hi < 0 || lo < 0) {
                    throw HttpError.badRequest("the path has an invalid %-escape '" + raw.substring(i, i + 3) + "'");
                }
                bytes.write(hi << 4 | lo);
                i += 2;
            } else {
                byte[] utf8 = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                bytes.write(utf8, 0, utf8.length);
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes.toByteArray())).toString();
        } catch (CharacterCodingException e) {
            throw HttpError.badRequest("the path is not valid UTF-8 once %-decoded");
        }
    }
}
