package io.wakurelay.node.config;

import io.wakurelay.p2p.HostConfigBuilder;
import io.wakurelay.p2p.noise.AeadSelection;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The p2p host's connections (a picocli mixin of {@link NodeOptions}): how many, from where, how they are secured and
 * kept alive; with {@link HostOptions} they fill the {@link io.wakurelay.p2p.HostConfig}.
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

    /** Sets the connection limits, the AEAD and the timers on {@code host}. */
    void applyTo(HostConfigBuilder host) {
        host.maxConnections(maxConnections)
                .reservedOutboundSlots(reservedOutboundSlots)
                .ipColocationLimit(ipColocationLimit)
                .handshakeTimeout(NodeOptions.option("--handshake-timeout", () -> DurationText.parse(handshakeTimeout)))
                .aead(NodeOptions.option("--aead-provider", () -> AeadSelection.Choice.parse(aeadProvider)))
                .pingInterval(NodeOptions.option("--ping-interval", () -> DurationText.parse(pingInterval)));
    }
}
