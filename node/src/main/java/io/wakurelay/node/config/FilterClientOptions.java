package io.wakurelay.node.config;

import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.services.filter.FilterClientConfig;
import picocli.CommandLine.Option;

/**
 * The filter client's part of the command line (a picocli mixin of {@link NodeOptions}): nwaku's {@code --filternode},
 * the service node the REST API's {@code /filter/v2} subscriptions are made at.
 */
public final class FilterClientOptions {
    @Option(names = "--filternode", paramLabel = "MULTIADDR",
            description = "peer multiaddr (ending in /p2p/<id>) to request content filtering of messages from (REST /filter/v2); "
                    + "without it, a connected peer that serves filter")
    String filterNode;

    /** {@code services} with the filter client these options give. */
    ServicesConfig apply(ServicesConfig services) {
        if (filterNode == null || filterNode.isBlank()) { // nwaku's default is the empty string: none
            return services;
        }
        Multiaddr address = NodeOptions.option("--filternode", () -> Multiaddr.parse(filterNode.strip()));
        return services.toBuilder().filterClient(NodeOptions.option("--filternode",
                () -> services.filterClient().toBuilder().serviceNode(address).build())).build();
    }
}
