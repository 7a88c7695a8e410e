package io.wakurelay.p2p.nat;

import java.net.InetSocketAddress;
import java.util.Optional;

/** The gateways of the fakes, found as {@link NatMapping#start(NatConfig, java.util.List, NatMetrics)} finds real ones. */
final class Finders {
    private Finders() {
    }

    static NatMapping.Finder upnp(NatConfig config, InetSocketAddress ssdp) {
        return new NatMapping.Finder() {
            @Override
            public Optional<NatGateway> find() throws NatException {
                return UpnpGateway.discover(config, ssdp).map(g -> g);
            }

            @Override
            public String protocol() {
                return "upnp";
            }
        };
    }

    static NatMapping.Finder pmp(NatConfig config, InetSocketAddress gateway) {
        return new NatMapping.Finder() {
            @Override
            public Optional<NatGateway> find() {
                return Optional.of(new PmpGateway(gateway, config));
            }

            @Override
            public String protocol() {
                return "pmp";
            }
        };
    }
}
