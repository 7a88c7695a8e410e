package io.wakurelay.node.config;

import io.wakurelay.node.metrics.MetricsConfig;
import picocli.CommandLine;
import picocli.CommandLine.Option;

import java.util.function.IntUnaryOperator;

/** The metrics server's options (nwaku's names), a picocli mixin of {@link NodeOptions}. */
public final class MetricsOptions {
    @Option(names = "--metrics-server", paramLabel = "BOOL", arity = "0..1", fallbackValue = "true", showDefaultValue = CommandLine.Help.Visibility.ALWAYS, description = "serve /metrics")
    boolean metricsServer;

    @Option(names = "--metrics-server-address", paramLabel = "IP", description = "interface of /metrics")
    String metricsAddress;

    @Option(names = "--metrics-server-port", paramLabel = "PORT", description = "port of /metrics")
    int metricsPort;

    /**
     * The metrics server's config, null when it is off; {@code shift} is {@code --ports-shift}, {@code allowHosts} the
     * REST API's {@code --rest-allow-host} names, which /metrics accepts too (DNS rebinding, ADR 0089).
     */
    MetricsConfig metrics(IntUnaryOperator shift, java.util.List<String> allowHosts) {
        return !metricsServer ? null : NodeOptions.option("metrics options",
                () -> NodeConfig.DEFAULTS.metrics().toBuilder().address(metricsAddress).port(shift.applyAsInt(metricsPort))
                        .allowHosts(allowHosts).build());
    }
}
