/**
 * What this node knows of other nodes:
 * <ul>
 *   <li>{@link io.wakurelay.discovery.peers.PeerRecords}: a bounded cache of other nodes' records, one per peer, the
 *       newest sequence number kept; what peer exchange serves.</li>
 * </ul>
 */
package io.wakurelay.discovery.peers;
