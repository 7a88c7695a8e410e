package io.wakurelay.node.config;

import io.wakurelay.discovery.enr.Enr;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/** discv5's options (nwaku's names), mixed into {@link NodeOptions}. */
public final class Discv5Options {

    @Option(names = "--discv5-discovery", paramLabel = "BOOL", arity = "0..1", fallbackValue = "true",
            showDefaultValue = CommandLine.Help.Visibility.ALWAYS,
            description = "run Node Discovery v5 over UDP: find peers of this cluster and shards by random walks "
                    + "from the bootstrap nodes and dial them (within --max-connections)")
    boolean discv5Discovery;

    @Option(names = "--discv5-udp-port", paramLabel = "PORT", showDefaultValue = CommandLine.Help.Visibility.ALWAYS,
            description = "UDP port of discv5 (shifted by --ports-shift; written into the ENR as udp)")
    int discv5UdpPort;

    @Option(names = "--discv5-bootstrap-node", paramLabel = "ENR", split = ",",
            description = "discv5 node to start from (enr:…; repeatable); DNS discovery's peers are used as well")
    List<String> discv5BootstrapNodes = new ArrayList<>();

    /** The settings these options give; {@code shift} applies --ports-shift. */
    Discv5Settings settings(java.util.function.IntUnaryOperator shift) {
        List<Enr> bootstrap = new ArrayList<>();
        for (String s : discv5BootstrapNodes) {
            bootstrap.add(NodeOptions.option("--discv5-bootstrap-node", () -> Enr.parse(s.strip())));
        }
        return Discv5Settings.DEFAULTS.toBuilder().enabled(discv5Discovery)
                .udpPort(discv5UdpPort == 0 ? 0 : shift.applyAsInt(discv5UdpPort)).bootstrap(bootstrap).build();
    }
}
