package io.wakurelay.node.rest;

import io.netty.handler.codec.http.QueryStringDecoder;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The parameters of a query string, split on {@code &} and {@code =} while still percent-encoded, so that
 * {@code %26} and {@code %3D} stay data. A list value ({@code contentTopics=a,b}) is decoded first and split on its
 * commas after, as nwaku splits it (chronos decodes the value, nwaku's {@code createStoreQuery} splits it): a comma
 * sent as {@code %2C}, as the interop suite and nwaku's clients encode every value, separates as a bare one does.
 * Decoding is as browsers encode forms ({@code +} is a space); a broken {@code %}-escape is an
 * {@link IllegalArgumentException}. Names are matched ignoring case, as nwaku's HTTP server (chronos) matches them.
 */
final class QueryParameters {
    private final Map<String, List<String>> raw;

    private QueryParameters(Map<String, List<String>> raw) {
        this.raw = raw;
    }

    /** @throws IllegalArgumentException when a parameter name has a broken %-escape */
    static QueryParameters of(String uri) {
        Map<String, List<String>> raw = new LinkedHashMap<>();
        int q = uri.indexOf('?');
        if (q >= 0) {
            for (String pair : uri.substring(q + 1).split("&")) {
                if (pair.isEmpty()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                String name = key(decode(eq < 0 ? pair : pair.substring(0, eq)));
                raw.computeIfAbsent(name, n -> new ArrayList<>()).add(eq < 0 ? "" : pair.substring(eq + 1));
            }
        }
        return new QueryParameters(raw);
    }

    private static String key(String name) {
        return name.toLowerCase(java.util.Locale.ROOT);
    }

    /**
     * @return the first occurrence's decoded value (a parameter given twice counts once, as scripts expect of nwaku),
     *         or {@code fallback} when absent
     * @throws IllegalArgumentException when it has a broken %-escape
     */
    String first(String name, String fallback) {
        List<String> values = raw.get(key(name));
        return values == null || values.isEmpty() ? fallback : decode(values.get(0));
    }

    /**
     * Every comma-separated part of every occurrence, split after the value is decoded, as they are (empty parts and
     * spaces too: what they mean is the caller's); an empty value gives no part, as nwaku takes it for an absent one.
     */
    List<String> list(String name) {
        List<String> out = new ArrayList<>();
        for (String value : raw.getOrDefault(key(name), List.of())) {
            String decoded = decode(value);
            if (!decoded.isEmpty()) {
                out.addAll(List.of(decoded.split(",", -1)));
            }
        }
        return out;
    }

    private static String decode(String encoded) {
        try {
            return QueryStringDecoder.decodeComponent(encoded, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the query string is not valid: " + e.getMessage(), e);
        }
    }
}
