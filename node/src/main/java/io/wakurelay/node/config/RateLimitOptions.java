package io.wakurelay.node.config;

import io.wakurelay.services.RateLimit;
import picocli.CommandLine.Option;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** nwaku's {@code --rate-limit}, a picocli mixin of {@link NodeOptions}: the per-peer request rates of the services. */
public final class RateLimitOptions {
    /** The protocols {@code --rate-limit} names, as nwaku names them. */
    private static final List<String> RATE_LIMITED = List.of("store", "lightpush", "filter", "px");

    @Option(names = "--rate-limit", paramLabel = "PROTOCOL:RATE", split = ",",
            description = "per-peer request rate of store, lightpush, filter or px (peer exchange) (nwaku's form, e.g. "
                    + "store:30/1s, lightpush:none; without PROTOCOL: all four); defaults: store 30/1s, lightpush 30/1s, "
                    + "filter 30/1m, px 30/1m")
    List<String> rateLimits = new ArrayList<>();

    /** The rates given, by protocol ({@code store}, {@code lightpush}, {@code filter}, {@code px}). */
    Map<String, RateLimit> rates() {
        return NodeOptions.option("--rate-limit", () -> rateLimits(rateLimits));
    }

    /** {@code store:30/1s}, {@code lightpush:none}, {@code px:10/1m}, or a bare rate for all four; a later entry overrides an earlier. */
    static Map<String, RateLimit> rateLimits(List<String> entries) {
        Map<String, RateLimit> rates = new LinkedHashMap<>();
        for (String entry : entries) {
            String text = entry.trim();
            int colon = text.indexOf(':');
            if (colon < 0) {
                RateLimit all = RateLimit.parse(text);
                RATE_LIMITED.forEach(p -> rates.put(p, all));
                continue;
            }
            String protocol = text.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            if (!RATE_LIMITED.contains(protocol)) {
                throw new IllegalArgumentException("'" + protocol + "' is not a rate-limited protocol; use one of "
                        + String.join(", ", RATE_LIMITED));
            }
            rates.put(protocol, RateLimit.parse(text.substring(colon + 1).trim()));
        }
        return rates;
    }
}
