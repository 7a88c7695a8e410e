/**
 * Discovery in a node (docs/discovery.md), in flow order: {@link io.wakurelay.discovery.Discovery}, the one door the
 * node uses, started from a {@link io.wakurelay.discovery.DiscoveryConfig}: it publishes the node's own record
 * ({@code NodeRecord}), keeps the record cache, and runs the finders of {@code discovery.dns},
 * {@code discovery.discv5} and {@code discovery.peerexchange}, which offer what they find to a
 * {@code discovery.peers.RecordSink} (the node's peer manager). Records themselves are {@code discovery.enr}'s.
 */
package io.wakurelay.discovery;
