package io.wakurelay.node.config;

import io.wakurelay.services.RateLimit;
import io.wakurelay.services.lightpush.LightpushConfig;
import io.wakurelay.services.lightpush.LightpushConfigBuilder;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/** The lightpush service's option (nwaku's name), a picocli mixin of {@link NodeOptions}. */
public final class LightpushOptions {
    @Option(names = "--lightpush", paramLabel = "BOOL", arity = "0..1", fallbackValue = "true", showDefaultValue = CommandLine.Help.Visibility.ALWAYS,
            description = "serve lightpush v3 (/vac/waku/lightpush/3.0.0): light clients publish through this node")
    boolean lightpush;

    /** @param rate {@code --rate-limit}'s rate for lightpush, or null for the default; returns null when lightpush is off */
    LightpushConfig lightpush(RateLimit rate) {
        if (!lightpush) {
            return null;
        }
        LightpushConfigBuilder config = LightpushConfig.builder();
        if (rate != null) {
            config.rateLimit(rate);
        }
        return config.build();
    }
}
