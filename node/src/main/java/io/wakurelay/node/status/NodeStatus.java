package io.wakurelay.node.status;

import io.wakurelay.p2p.multiaddr.Multiaddr;
import reactor.core.publisher.Mono;

import java.time.Duration;

import java.util.List;
import java.util.Set;

/** What the REST API may ask of the running node. */
public interface NodeStatus {
    /** The node's libp2p peer id (base58). */
    String peerId();

    String version();

    /** Where peers can dial this node, as multiaddrs ending in {@code /p2p/<peer id>}. */
    List<String> listenAddresses();

    /** The node's ENR ({@code enr:…}), or null when it has none (its key is not secp256k1). */
    String enrUri();

    Set<String> pubsubTopics();

    /** The relay is running (not shutting down); on a node without relay, the node is. */
    boolean relayReady();

    /** The node has finished starting: each static peer's first dial has ended (nwaku's INITIALIZING before). */
    default boolean initialized() {
        return true;
    }

    /** Whether the node relays at all (false: {@code --relay=false}, an edge node). */
    default boolean relayMounted() {
        return true;
    }

    /** Peers the relay exchanges messages with now. */
    int relayPeerCount();

    /** The request-response services served beside relay, by nwaku's health names: "Lightpush", "Filter", "Peer Exchange". */
    Set<String> services();

    /** "Ready", or a short description of what is wrong; null when the node does not archive. */
    String storeHealth();

    /** "Ready", or why RLN cannot validate proofs yet (no membership root read); null when RLN is off. */
    default String rlnHealth() {
        return null;
    }

    List<PeerView> peers();

    /** The cluster this node's shards belong to ({@code /waku/2/rs/<cluster>/<shard>}). */
    int clusterId();

    /** The subscribers of this node's filter service, each with its criteria; null when the node serves no filter. */
    List<FilterSubscriberView> filterSubscribers();

    /**
     * Keeps {@code address} (with its /p2p peer id) connected, as a static peer, and dials it now. Completes once the
     * peer is connected and, when it is a relay peer, its relay subscriptions are known (a publish then reaches it);
     * errors when the dial fails or does not finish within {@code timeout}. The peer is kept either way.
     */
    Mono<Void> addPeer(Multiaddr address, Duration timeout);
}
