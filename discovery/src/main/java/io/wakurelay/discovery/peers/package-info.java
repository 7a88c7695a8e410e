/**
 * What this node knows of other nodes, and where the finders put what they find, in flow order:
 * <ul>
 *   <li>{@link io.wakurelay.discovery.peers.RecordSink}: takes the records a finder found, each batch with its
 *       {@link io.wakurelay.discovery.peers.Origin}; the node's peer manager implements it and alone dials;</li>
 *   <li>{@link io.wakurelay.discovery.peers.PeerRecords}: a bounded cache of other nodes' records, one per peer, the
 *       newest sequence number kept: the records of peers the sink connected, and the static peers'; what peer
 *       exchange serves.</li>
 * </ul>
 */
package io.wakurelay.discovery.peers;
