package io.wakurelay.node.rest;

import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Which browser origins may call the API ({@code --rest-allow-origin}, as nwaku). A request without an
 * {@code Origin} header (curl, scripts, other nodes) is not a cross-origin request and is not concerned; a
 * request from a web page carries its page's origin, and unless a pattern allows it, it is refused: otherwise any
 * page in the operator's browser could publish, subscribe or drain caches on 127.0.0.1.
 *
 * <p>Patterns use {@code *} (any run of characters) and {@code ?} (one character) and match either the whole
 * origin ({@code http://localhost:3000}) or the origin without its scheme ({@code localhost:3000}), so that
 * nwaku's examples ({@code "localhost:*"}, {@code "127.0.0.1:8080"}, {@code "*"}) mean the same here.
 */
final class OriginPolicy {
    private final List<Pattern> allowed;

    OriginPolicy(List<String> patterns) {
        this.allowed = patterns.stream().map(OriginPolicy::glob).toList();
    }

    boolean allows(String origin) {
        String o = origin.trim().toLowerCase(Locale.ROOT);
        int scheme = o.indexOf("://");
        String withoutScheme = scheme < 0 ? o : o.substring(scheme + 3);
        for (Pattern p : allowed) {
            if (p.matcher(o).matches() || p.matcher(withoutScheme).matches()) {
                return true;
            }
        }
        return false;
    }

    private static Pattern glob(String pattern) {
        StringBuilder regex = new StringBuilder();
        for (char c : pattern.trim().toLowerCase(Locale.ROOT).toCharArray()) {
            switch (c) {
                case '*' -> regex.append(".*");
                case '?' -> regex.append('.');
                default -> regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(regex.toString(), Pattern.DOTALL);
    }
}
