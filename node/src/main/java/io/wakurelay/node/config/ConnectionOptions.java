package io.wakurelay.node.config;

import io.wakurelay.p2p.HostConfigBuilder;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * How the host trims inbound connections (ADR 0086), mixed into {@link NodeOptions}. nwaku has none of these (it
 * has {@code --ip-colocation-limit}, which {@link NodeOptions} keeps); the names follow it.
 */
public final class ConnectionOptions {

    @Option(names = "--subnet-colocation-limit", paramLabel = "N", showDefaultValue = CommandLine.Help.Visibility.ALWAYS,
            description = "inbound peer connections one /24 (IPv4) or /64 (IPv6) may hold, handshaking ones included "
                    + "(0 = no limit; loopback is exempt); raise it, as --ip-colocation-limit, behind a proxy")
    int subnetColocationLimit;

    @Option(names = "--connection-grace-period", paramLabel = "DURATION",
            showDefaultValue = CommandLine.Help.Visibility.ALWAYS,
            description = "an inbound connection still unidentified, or that names and used no protocol this node "
                    + "serves, this long after its handshake is closed; until then a newcomer takes its slot only if "
                    + "its identify failed")
    String gracePeriod;

    @Option(names = "--connection-idle-timeout", paramLabel = "DURATION",
            showDefaultValue = CommandLine.Help.Visibility.ALWAYS,
            description = "an inbound connection with no stream open (identify and ping aside) for this long is "
                    + "closed; mesh peers, filter subscribers and static peers are kept")
    String idleTimeout;

    /** These options onto the host's config. */
    HostConfigBuilder apply(HostConfigBuilder host) {
        return host.subnetColocationLimit(subnetColocationLimit)
                .gracePeriod(NodeOptions.option("--connection-grace-period", () -> DurationText.parse(gracePeriod)))
                .idleTimeout(NodeOptions.option("--connection-idle-timeout", () -> DurationText.parse(idleTimeout)));
    }
}
