/**
 * The runnable node. {@link io.wakurelay.node.NodeMain} parses the command line into a
 * {@link io.wakurelay.node.NodeConfig} (with its {@link io.wakurelay.node.ServicesConfig}; tests and the load
 * generator build one from {@code NodeConfig.DEFAULTS} directly) and starts a {@link io.wakurelay.node.WakuNode}:
 * metrics, the archive and its {@code ArchivePipeline}, the p2p host, the relay, the services, then REST, each
 * added to {@code StartedComponents}, which stops them in the reverse order within one grace. {@link io.wakurelay.node.NodeStatus} is what REST may ask of it
 * ({@link io.wakurelay.node.PeerView}s built by {@code PeerViews}, the log level through
 * {@link io.wakurelay.node.LogLevels}); {@code RelayBinding} gives REST the relay; {@code NodeRecord} makes the node's ENR (module
 * {@code discovery}) once the services are up; {@code NodePeerExchange} wires peer exchange (its record cache, server,
 * client and the loop of {@code --peer-exchange-node}) as {@link io.wakurelay.node.PeerExchangeSettings} says. {@link io.wakurelay.node.NodeProcess}
 * runs a node in its own JVM for tests and the load generator. docs/architecture.md follows a message through it.
 */
package io.wakurelay.node;
