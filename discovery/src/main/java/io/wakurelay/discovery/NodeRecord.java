package io.wakurelay.discovery;

import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.discovery.enr.EnrBuilder;
import io.wakurelay.discovery.enr.LocalEnr;
import io.wakurelay.discovery.enr.RelayShards;
import io.wakurelay.discovery.enr.WakuCapabilities;
import io.wakurelay.p2p.Host;
import io.wakurelay.p2p.crypto.KeyType;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.protocol.Topics;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.OptionalInt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's ENR, made at start from what it serves: the host's announced addresses (the same ones identify
 * announces, so {@code --ext-multiaddr} and every transport's address appear), the {@code waku2} bits of the protocols
 * its host serves ({@link WakuCapabilities#served}; so the services start before the record is made), and the shards
 * of the cluster's static-sharding topics it relays. As nwaku, shards above 1023 (which an ENR cannot name) are left
 * out of the record. A node whose key is not secp256k1 (an Ed25519 key file) has no
 * record: "v4" identities are secp256k1 only. With discv5 on, {@code udp} names its port; with
 * {@code --discv5-enr-auto-update}, discv5 replaces {@code ip}/{@code udp} by the address the nodes it pings see
 * ({@link #withExternalAddress}): the record is signed again with the next sequence number and written to
 * {@code <data-dir>/enr}, so the count still grows across restarts.
 */
final class NodeRecord {

    private static final Logger LOG = LoggerFactory.getLogger(NodeRecord.class);

    private final LocalEnr local;
    private final EnrBuilder builder; // guarded by this

    private NodeRecord(LocalEnr local, EnrBuilder builder) {
        this.local = local;
        this.builder = builder;
    }

    /** The record now. */
    Enr current() {
        return local.current();
    }

    /** The record with {@code ip}/{@code udp} (or {@code ip6}/{@code udp6}) set to {@code address}, published. */
    synchronized Enr withExternalAddress(InetSocketAddress address) {
        return local.update(builder.externalAddress(address));
    }

    /** The published record, or null when the node key cannot sign one. */
    static NodeRecord publish(Path dataDir, Host host, int clusterId, Collection<String> topics, OptionalInt udpPort) {
        if (host.identity().type() != KeyType.SECP256K1) {
            LOG.atWarn().addKeyValue("keyType", String.valueOf(host.identity().type()))
                    .log("no ENR: ENRs (the \"v4\" identity) need a secp256k1 node key");
            return null;
        }
        List<Multiaddr> announced = host.listenAddresses().stream().map(Multiaddr::withoutPeerId).toList();
        EnrBuilder builder = EnrBuilder.of(host.identity())
                .announce(announced)
                .capabilities(WakuCapabilities.of(WakuCapabilities.served(host.protocols())))
                .shards(RelayShards.of(clusterId, shardsOf(clusterId, topics)));
        udpPort.ifPresent(builder::udpPort); // discv5's port, while it runs
        return new NodeRecord(LocalEnr.publish(dataDir, builder), builder);
    }

    static List<Integer> shardsOf(int clusterId, Collection<String> topics) {
        List<Integer> shards = new ArrayList<>();
        String clusterPrefix = "/waku/2/rs/" + clusterId + "/";
        for (String topic : topics) {
            OptionalInt shard = Topics.shardOf(topic);
            if (shard.isEmpty() || !topic.startsWith(clusterPrefix)) {
                continue;
            }
            if (shard.getAsInt() > RelayShards.MAX_SHARD) {
                LOG.atWarn().addKeyValue("shard", shard.getAsInt()).addKeyValue("maxShard", RelayShards.MAX_SHARD)
                        .log("a shard is not in the ENR: an ENR names shards 0..maxShard");
                continue;
            }
            shards.add(shard.getAsInt());
        }
        return shards;
    }
}
