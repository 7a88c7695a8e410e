package io.wakurelay.discovery.peerexchange;

import io.wakurelay.p2p.multiaddr.Multiaddr;
import reactor.core.publisher.Mono;

import java.util.List;

/**
 * One peer exchange request on the wire: the client of {@code /vac/waku/peer-exchange/2.0.0-alpha1} in services
 * ({@code PeerExchangeClient#request}), which the node hands to discovery. Discovery decides whom to ask and what to do
 * with the answer; the request, its bounds and its errors are the client's.
 */
@FunctionalInterface
public interface PeerExchangeRequests {
    /**
     * Asks the node at {@code peer} (a multiaddr ending in {@code /p2p/<peer id>}) for up to {@code numPeers} records:
     * their RLP encodings as answered (at most {@code numPeers}), not decoded. Fails when no answer came.
     */
    Mono<List<byte[]>> request(Multiaddr peer, int numPeers);
}
