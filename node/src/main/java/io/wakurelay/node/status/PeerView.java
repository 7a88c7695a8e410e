package io.wakurelay.node.status;

import java.util.List;

/**
 * A peer as the admin API shows it.
 *
 * @param multiaddr  where it was dialled, or the address identify announced, with {@code /p2p/<peer id>}
 * @param direction  {@code inbound} or {@code outbound}; null when not connected
 * @param origin     nwaku's peer origin: {@code Static} (a --staticnode or POST /admin/v1/peers peer), {@code Dns},
 *                   {@code Discv5} or {@code PeerExchange} (a peer that discovery found and dialled), or
 *                   {@code UnknownOrigin} (a peer that dialled this node, or one a service dialled)
 * @param score      its gossipsub score; null when it is not a relay peer
 * @param topics     the pubsub topics it subscribes to
 * @param meshTopics the topics whose mesh it is in
 */
public record PeerView(String peerId, String multiaddr, List<String> protocols, String agent, String direction,
                       String origin, boolean connected, Double score, List<String> topics, List<String> meshTopics,
                       String muxer, long queuedBytes, long drops) {
}
