/**
 * Peer exchange's wire (rfc-index core/34); which records are served, and what becomes of those received, is the
 * discovery module's. In flow order:
 * <ul>
 *   <li>the server: {@link io.wakurelay.services.peerexchange.PeerExchangeService} and
 *       {@link io.wakurelay.services.peerexchange.PeerExchangeConfig}; {@code PeerExchangeExchange} (the records its
 *       {@code RecordSource} gives); {@code PeerExchangeStatus}, {@code PeerExchangeMetrics};</li>
 *   <li>the client: {@link io.wakurelay.services.peerexchange.PeerExchangeClient} (one request, its records
 *       undecoded) with {@link io.wakurelay.services.peerexchange.PeerExchangeClientConfig},
 *       {@code PeerExchangeClientExchange}, {@link io.wakurelay.services.peerexchange.PeerExchangeException},
 *       {@code PeerExchangeClientMetrics}.</li>
 * </ul>
 */
package io.wakurelay.services.peerexchange;
