package io.wakurelay.node.config;

import io.wakurelay.p2p.HostConfigBuilder;
import io.wakurelay.p2p.noise.AeadSelection;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The p2p host's connections (a picocli mixin of {@link NodeOptions}): how many, from where, how they are secured,
 * kept alive and trimmed (ADR 0086; nwaku has none of the trimming options, the names follow its
 * {@code --ip-colocation-limit}); with {@link HostOptions} they fill the {@link io.wakurelay.p2p.HostConfig}.
 */
public final class ConnectionOptions {
    @Option(names = "--max-connections", paramLabel = "N", description = "peer connections, inbound and outbound")
    int maxConnections;

    @Option(names = "--reserved-outbound-slots", paramLabel = "N",
            description = "of --max-connections, slots inbound connections may not take (at least one per static node is kept)")
    int reservedOutboundSlots;

    @Option(names = "--ip-colocation-limit", paramLabel = "N",
            description = "inbound peer connections one IP address may hold, handshaking ones included, so that one address "
                    + "cannot take every --max-connections slot (0 = no limit)")
    int ipColocationLimit;

    @Option(names = "--aead-provider", paramLabel = "PROVIDER",
            description = "the ChaCha20-Poly1305 of peer connections: conscrypt (native), jdk, or auto (conscrypt "
                    + "where it loads, else jdk; docs/adr/0070)")
    String aeadProvider;

    @Option(names = "--handshake-timeout", paramLabel = "DURATION",
            description = "time a new connection has for its security and muxer negotiation")
    String handshakeTimeout;

    @Option(names = "--ping-interval", paramLabel = "DURATION",
            description = "how often each connection is pinged; an answer missing for 10 s closes it")
    String pingInterval;

    @Option(names = "--keep-alive", paramLabel = "BOOL", arity = "0..1", fallbackValue = "true",
            showDefaultValue = CommandLine.Help.Visibility.ALWAYS,
            description = "accepted as nwaku's flag, which ignores it since 0.37: connections are always kept alive "
                    + "(pinged every --ping-interval)")
    boolean keepAlive;

    @Option(names = "--subnet-colocation-limit", paramLabel = "N", showDefaultValue = CommandLine.Help.Visibility.ALWAYS,
            description = "inbound peer connections one /24 (IPv4) or /64 (IPv6) may hold, handshaking ones included "
                    + "(0 = no limit; loopback is exempt); raise it, as --ip-colocation-limit, behind a proxy")
    int subnetColocationLimit;

    @Option(names = "--connection-grace-period", paramLabel = "DURATION",
            showDefaultValue = CommandLine.Help.Visibility.ALWAYS,
            description = "an inbound connection still unidentified, or that names and used no protocol this node "
                    + "serves, this long after its handshake is closed; until then a newcomer takes its slot only if "
                    + "its identify failed (ADR 0086)")
    String gracePeriod;

    @Option(names = "--connection-idle-timeout", paramLabel = "DURATION",
            showDefaultValue = CommandLine.Help.Visibility.ALWAYS,
            description = "an inbound connection with no stream open (identify and ping aside) for this long is "
                    + "closed; mesh peers, filter subscribers and static peers are kept")
    String idleTimeout;

    /** Sets the connection limits, the trimming, the AEAD and the timers on {@code host}. */
    void applyTo(HostConfigBuilder host) {
        host.maxConnections(maxConnections)
                .reservedOutboundSlots(reservedOutboundSlots)
                .ipColocationLimit(ipColocationLimit)
                .subnetColocationLimit(subnetColocationLimit)
                .gracePeriod(NodeOptions.option("--connection-grace-period", () -> DurationText.parse(gracePeriod)))
                .idleTimeout(NodeOptions.option("--connection-idle-timeout", () -> DurationText.parse(idleTimeout)))
                .handshakeTimeout(NodeOptions.option("--handshake-timeout", () -> DurationText.parse(handshakeTimeout)))
                .aead(NodeOptions.option("--aead-provider", () -> AeadSelection.Choice.parse(aeadProvider)))
                .pingInterval(NodeOptions.option("--ping-interval", () -> DurationText.parse(pingInterval)));
    }
}
