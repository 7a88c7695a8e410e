/**
 * Peer exchange (rfc-index core/34) as discovery sees it; the wire, server and client, is services', in flow order:
 * <ul>
 *   <li>{@link io.wakurelay.discovery.peerexchange.PeerExchangeDiscovery} with
 *       {@link io.wakurelay.discovery.peerexchange.PeerExchangeDiscoveryConfig}: the finder, which asks the
 *       {@code --peer-exchange-node} every minute through
 *       {@link io.wakurelay.discovery.peerexchange.PeerExchangeRequests} (the wire client), judges the records
 *       answered and offers the rest to the record sink;
 *       {@link io.wakurelay.discovery.peerexchange.PeerExchangeDiscoveryMetrics}: what became of them, and the
 *       cache;</li>
 *   <li>{@link io.wakurelay.discovery.peerexchange.ServedRecords}: what the server answers with, a sample of the
 *       cache's records of peers connected now.</li>
 * </ul>
 */
package io.wakurelay.discovery.peerexchange;
