/**
 * The runnable node: the assembly of every module. {@link io.wakurelay.node.NodeMain} reads the command line into a
 * {@link io.wakurelay.node.config.NodeConfig} (package {@code config}; tests and the load generator build one from
 * {@code NodeConfig.DEFAULTS} directly) and starts a {@link io.wakurelay.node.WakuNode}: metrics, REST's port held
 * ({@code ServerPorts}), the archive and its {@code ArchivePipeline}, the port mapping at the gateway
 * ({@code NodeNat}, {@code --nat=any|upnp|pmp}), the p2p host, the relay, the services, the {@code AcceptedMessages}
 * stage (filter push, REST delivery, taps, then the
 * archive pipeline, in that order and at the archive's pace), then REST (package {@code rest}) on the port held, each
 * added to {@code StartedComponents}, which stops them in the reverse order within one grace. A start that fails is
 * one line from {@code StartFailures} (a port in use is a {@link io.wakurelay.node.BindFailedException}). What REST
 * may ask of the node is a {@link io.wakurelay.node.status.NodeStatus} (package {@code status},
 * with the {@code PeerView}s built by {@code PeerViews}); log format and levels are package {@code logging};
 * {@code RelayBinding} gives REST the relay (none with {@code --relay=false}: an edge node); {@code NodePeerValues}
 * tells the host which inbound peers to keep when it trims (the relay's mesh, the filter's subscribers); {@code NodeLightpush}
 * gives REST lightpush (the node's own service, or the {@code --lightpushnode} through the lightpush client);
 * {@code NodeDiscovery} wires discovery (module {@code discovery}: the node's ENR, made once the services are up, and
 * the finders) to peer exchange's wire (module {@code services}) and to the peer manager (package {@code peers}),
 * which takes the finds and alone dials, and {@code PeerOrigins} keeps how each was found; {@code UncaughtExceptions}
 * (package {@code logging}) logs what a thread did not catch. {@link io.wakurelay.node.NodeProcess} runs a
 * node in its own JVM for tests and the load generator. The packages form a tree with this one at the top
 * ({@code PackageGraphTest}); docs/architecture.md follows a message through it.
 */
package io.wakurelay.node;
