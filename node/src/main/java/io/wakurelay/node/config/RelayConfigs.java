package io.wakurelay.node.config;

import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.p2p.HostConfig;
import io.wakurelay.p2p.noise.AeadSelection;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.p2p.ws.PemFiles;
import io.wakurelay.p2p.ws.WebSocketConfig;
import io.wakurelay.p2p.ws.WebSocketConfigBuilder;
import io.wakurelay.protocol.ProtocolLimits;
import io.wakurelay.protocol.Topics;
import io.wakurelay.relay.RelayConfig;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;

/** The peer side of the node's configuration (the p2p host and the relay), from its command line. */
final class RelayConfigs {
    private RelayConfigs() {
    }

    static HostConfig host(NodeOptions o) {
        List<Multiaddr> statics = new ArrayList<>();
        for (String s : o.staticNodes) {
            statics.add(NodeOptions.option("--staticnode", () -> staticPeer(s)));
        }
        List<Multiaddr> announced = new ArrayList<>();
        for (String s : o.extMultiaddrs) {
            announced.add(NodeOptions.option("--ext-multiaddr", () -> Multiaddr.parse(s).withoutPeerId()));
        }
        return o.connectionOptions.apply(NodeConfig.DEFAULTS.host().toBuilder())
                .listenAddress(new InetSocketAddress(o.listenAddress, o.shifted(o.tcpPort)))
                .announceAddresses(announced)
                .externalAddressesOnly(o.extMultiaddrOnly)
                .maxConnections(o.maxConnections)
                .reservedOutboundSlots(o.reservedOutboundSlots)
                .ipColocationLimit(o.ipColocationLimit)
                .handshakeTimeout(NodeOptions.option("--handshake-timeout", () -> DurationText.parse(o.handshakeTimeout)))
                .aead(NodeOptions.option("--aead-provider", () -> AeadSelection.Choice.parse(o.aeadProvider)))
                .pingInterval(NodeOptions.option("--ping-interval", () -> DurationText.parse(o.pingInterval)))
                .staticPeers(statics)
                .webSocket(webSocket(o))
                .dns4DomainName(NodeOptions.option("--dns4-domain-name", () -> o.dns4DomainName == null ? null
                        : HostConfig.builder().dns4DomainName(o.dns4DomainName).build().dns4DomainName()))
                .build();
    }

    /**
     * nwaku's WebSocket options: {@code --websocket-secure-support} turns WebSocket on too and needs both files, which
     * are read and checked here, so that a wrong path stops the start naming its flag.
     */
    static WebSocketConfig webSocket(NodeOptions o) {
        WebSocketConfigBuilder ws = NodeConfig.DEFAULTS.host().webSocket().toBuilder()
                .listen(o.websocketSupport || o.websocketSecureSupport)
                .port(NodeOptions.option("--websocket-port", () -> o.shifted(o.websocketPort)));
        if (o.websocketSecureSupport) {
            if (o.websocketSecureKeyPath == null || o.websocketSecureCertPath == null) {
                throw new IllegalArgumentException("--websocket-secure-support needs --websocket-secure-key-path and "
                        + "--websocket-secure-cert-path ("
                        + (o.websocketSecureKeyPath == null ? "no key" : "no certificate") + " given)");
            }
            NodeOptions.option("--websocket-secure-cert-path", () -> PemFiles.certificates(o.websocketSecureCertPath));
            NodeOptions.option("--websocket-secure-key-path", () -> PemFiles.privateKey(o.websocketSecureKeyPath));
            NodeOptions.option("--websocket-secure-key-path", () -> PemFiles.serverIdentity(o.websocketSecureCertPath,
                    o.websocketSecureKeyPath));
            ws.certPath(o.websocketSecureCertPath).keyPath(o.websocketSecureKeyPath);
        }
        return ws.build();
    }

    /** A static node's address: TCP or WebSocket, ending in /p2p/<peer id> (the node must prove it is that peer). */
    static Multiaddr staticPeer(String text) {
        if (text.strip().startsWith(Enr.TEXT_PREFIX)) {
            return staticRecordAddress(Enr.parse(text));
        }
        Multiaddr address = Multiaddr.parse(text);
        if (!(address.isTcp() || address.isWebSocket()) || address.peerId().isEmpty()) {
            throw new IllegalArgumentException("'" + text + "' must be a TCP or WebSocket multiaddr ending in "
                    + "/p2p/<peer id>, e.g. /ip4/127.0.0.1/tcp/60000/p2p/16Uiu2… or "
                    + "/dns4/node.example/tcp/8000/wss/p2p/16Uiu2…");
        }
        return address;
    }

    /** The address a static peer given by its ENR is dialled at: the record's first TCP or WebSocket address. */
    static Multiaddr staticRecordAddress(Enr record) {
        return record.dialAddresses().stream().filter(a -> a.isTcp() || a.isWebSocket()).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("the ENR of " + record.peerId()
                        + " names no TCP or WebSocket address to dial"));
    }

    static RelayConfig relay(NodeOptions o, ProtocolLimits limits) {
        return RelayConfig.builder()
                .clusterId(o.clusterId)
                .pubsubTopics(List.copyOf(topics(o, limits)))
                .limits(limits)
                .peerQueueMessages(o.peerQueueMessages)
                .peerQueueBytes(NodeOptions.option("--peer-queue-size", () -> ByteSize.parse(o.peerQueueSize)))
                .maxDropsBeforeDisconnect(o.peerMaxDrops)
                .messageCacheBytes(NodeOptions.option("--relay-message-cache-size", () -> ByteSize.parse(o.relayMessageCacheSize)))
                .rpcReadTimeout(NodeOptions.option("--relay-rpc-timeout", () -> DurationText.parse(o.relayRpcTimeout)))
                .build();
    }

    /**
     * The shards as /waku/2/rs/<cluster>/<shard> topics, then the shards of --content-topic, then the named topics. When
     * neither shards nor named topics are given: every shard of the network with automatic sharding
     * (--num-shards-in-network, as nwaku), shard 0 without.
     */
    static Set<String> topics(NodeOptions o, ProtocolLimits limits) {
        Set<String> topics = new LinkedHashSet<>();
        List<Integer> none = o.numShardsInNetwork > 0 ? IntStream.range(0, o.numShardsInNetwork).boxed().toList() : List.of(0);
        List<Integer> shards = o.shards.isEmpty() && o.pubsubTopics.isEmpty() ? none : o.shards;
        for (int shard : shards) {
            if (shard < 0 || shard > 1023) {
                throw new IllegalArgumentException("--shard must be in 0..1023, was " + shard);
            }
            topics.add("/waku/2/rs/" + o.clusterId + "/" + shard);
        }
        topics.addAll(NodeOptions.option("--content-topic", () -> o.contentTopicOptions.shardTopics(o.autoSharding())));
        for (String topic : o.pubsubTopics) {
            NodeOptions.option("--pubsub-topic", () -> {
                Topics.checkPubsubTopic(topic, limits.maxTopicBytes());
                return topic;
            });
            topics.add(topic);
        }
        return topics;
    }
}
