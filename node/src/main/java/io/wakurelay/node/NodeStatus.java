package io.wakurelay.node;

import io.wakurelay.relay.PeerInfo;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Set;

/** What the REST API may ask of the running node. */
public interface NodeStatus {
    String nodeId();

    String version();

    List<String> listenAddresses();

    Set<String> pubsubTopics();

    boolean relayReady();

    /** "Ready", or a short description of what is wrong; null when the node does not archive. */
    String storeHealth();

    List<PeerInfo> peers();

    void addPeer(InetSocketAddress address);
}
