package io.wakurelay.node.config;

import io.wakurelay.archive.PostgresConfig;
import io.wakurelay.archive.RocksConfig;
import io.wakurelay.node.rest.RestConfig;
import io.wakurelay.p2p.HostConfig;
import io.wakurelay.protocol.ProtocolLimits;
import io.wakurelay.relay.RelayConfig;
import io.wakurelay.rln.RlnConfig;

import io.wakurelay.services.filter.FilterConfig;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The built-in default of every node option, written from {@link NodeConfig#DEFAULTS} and so from each component's
 * own DEFAULTS: a default lives in its record only, and the flags, {@code --help} and docs/configuration.md show it
 * from there. Options without a default (lists, the node key, the config file) are absent.
 */
final class OptionDefaults {
    private static final Map<String, String> BY_OPTION = build();

    private OptionDefaults() {
    }

    /** @return the default of {@code --option} as text the option parses, or null when it has none */
    static String of(String option) {
        return BY_OPTION.get(option);
    }

    static Map<String, String> all() {
        return BY_OPTION;
    }

    private static Map<String, String> build() {
        NodeConfig node = NodeConfig.DEFAULTS;
        HostConfig host = node.host();
        RelayConfig relay = node.relay();
        ProtocolLimits limits = relay.limits();
        // the node archives in RocksDB unless a postgres:// URL is given
        RocksConfig archive = (RocksConfig) node.archive();
        FilterConfig filter = node.services().filter();
        RestConfig rest = node.rest();
        Map<String, String> d = new LinkedHashMap<>();
        d.put("--data-dir", node.dataDir().toString());
        d.put("--listen-address", host.listenAddress().getHostString());
        d.put("--tcp-port", String.valueOf(host.listenAddress().getPort()));
        d.put("--ports-shift", "0"); // a command-line convenience only: no component has it
        d.put("--nat", "none"); // folded into the announced addresses; nwaku's "any" would map ports by default
        d.put("--keep-alive", "true"); // nwaku's default; ignored there and here
        d.put("--websocket-support", String.valueOf(host.webSocket().listen()));
        d.put("--ext-multiaddr-only", String.valueOf(host.externalAddressesOnly()));
        d.put("--websocket-port", String.valueOf(host.webSocket().port()));
        d.put("--websocket-secure-support", String.valueOf(host.webSocket().secure()));
        d.put("--cluster-id", String.valueOf(relay.clusterId()));
        d.put("--num-shards-in-network", node.autoSharding() == null ? "0" : String.valueOf(node.autoSharding().numShardsInNetwork()));
        d.put("--max-msg-size", ByteSize.format(limits.maxMessageSize()));
        d.put("--max-rpc-size", ByteSize.format(limits.maxRpcSize()));
        d.put("--max-clock-drift", DurationText.format(archive.core().timestampWindow()));
        d.put("--max-connections", String.valueOf(host.maxConnections()));
        d.put("--relay-service-ratio", node.peerManager().ratio().format());
        d.put("--peer-store-capacity", String.valueOf(node.peerManager().storeCapacity()));
        d.put("--dial-private-peers", String.valueOf(node.peerManager().dialPrivatePeers()));
        d.put("--reserved-outbound-slots", String.valueOf(host.reservedOutboundSlots()));
        d.put("--ip-colocation-limit", String.valueOf(host.ipColocationLimit()));
        d.put("--subnet-colocation-limit", String.valueOf(host.subnetColocationLimit()));
        d.put("--connection-grace-period", DurationText.format(host.gracePeriod()));
        d.put("--connection-idle-timeout", DurationText.format(host.idleTimeout()));
        d.put("--handshake-timeout", DurationText.format(host.handshakeTimeout()));
        d.put("--aead-provider", host.aead().label());
        d.put("--ping-interval", DurationText.format(host.pingInterval()));
        d.put("--peer-queue-messages", String.valueOf(relay.peerQueueMessages()));
        d.put("--peer-queue-size", ByteSize.format(relay.peerQueueBytes()));
        d.put("--peer-max-drops", String.valueOf(relay.maxDropsBeforeDisconnect()));
        d.put("--relay-message-cache-size", ByteSize.format(relay.messageCacheBytes()));
        d.put("--relay-rpc-timeout", DurationText.format(relay.rpcReadTimeout()));
        d.put("--relay", String.valueOf(node.edge().relay()));
        RlnConfig rln = RlnConfig.DEFAULTS; // RLN is off unless turned on; its values are the record's
        d.put("--rln-relay", String.valueOf(node.rln() != null));
        d.put("--rln-relay-eth-client-address", String.join(",", rln.ethClientAddresses().stream().map(Object::toString).toList()));
        d.put("--rln-relay-eth-contract-address", rln.ethContractAddress());
        d.put("--rln-relay-chain-id", String.valueOf(rln.chainId()));
        d.put("--rln-relay-epoch-sec", String.valueOf(rln.epochSizeSec()));
        d.put("--rln-relay-user-message-limit", String.valueOf(rln.userMessageLimit()));
        d.put("--rln-relay-dynamic", "false"); // nwaku's default; the membership is read from the contract either way
        d.put("--rln-relay-nullifier-derivation", RlnOptions.derivationName(rln.derivation()));
        d.put("--store", String.valueOf(archive != null));
        PostgresConfig postgres = PostgresConfig.DEFAULTS;
        d.put("--store-message-db-url", "");
        d.put("--store-max-num-db-connections", String.valueOf(postgres.maxConnections()));
        d.put("--store-message-db-statement-timeout", DurationText.format(postgres.statementTimeout()));
        d.put("--store-message-db-connect-timeout", DurationText.format(postgres.connectTimeout()));
        d.put("--store-message-db-start-wait", DurationText.format(postgres.startWait()));
        d.put("--store-message-retention-policy", archive.core().retention().spec());
        d.put("--store-durability", archive.durability().label());
        d.put("--store-flush-interval", DurationText.format(archive.flushInterval()));
        d.put("--store-cache-size", ByteSize.format(archive.blockCacheBytes()));
        d.put("--store-write-buffer-size", ByteSize.format(archive.writeBufferBytes()));
        d.put("--store-write-rate-limit", ByteSize.format(archive.writeRateBytes()));
        d.put("--store-direct-io", String.valueOf(archive.directIo()));
        d.put("--store-max-queries", String.valueOf(node.store().maxConcurrentQueries()));
        d.put("--store-max-page-bytes", ByteSize.format(node.store().maxPageBytes()));
        d.put("--lightpush", String.valueOf(node.services().lightpush() != null));
        d.put("--filter", String.valueOf(filter != null));
        d.put("--filter-subscription-timeout", String.valueOf(filter.subscriptionTimeout().toSeconds()));
        d.put("--filter-max-peers-to-serve", String.valueOf(filter.maxPeersToServe()));
        d.put("--filter-max-criteria", String.valueOf(filter.maxCriteriaPerPeer()));
        d.put("--peer-exchange", String.valueOf(node.services().peerExchange().server() != null));
        d.put("--dns-discovery", String.valueOf(node.discovery().dns().enabled()));
        d.put("--discv5-discovery", String.valueOf(node.discovery().discv5().enabled()));
        d.put("--discv5-udp-port", String.valueOf(node.discovery().discv5().udpPort()));
        d.put("--discv5-enr-auto-update", String.valueOf(node.discovery().discv5().enrAutoUpdate()));
        d.put("--discv5-table-ip-limit", String.valueOf(node.discovery().discv5().tableIpLimit()));
        d.put("--discv5-bucket-ip-limit", String.valueOf(node.discovery().discv5().bucketIpLimit()));
        d.put("--discv5-bits-per-hop", String.valueOf(node.discovery().discv5().bitsPerHop()));
        d.put("--rest", String.valueOf(rest != null));
        d.put("--rest-address", rest.address());
        d.put("--rest-port", String.valueOf(rest.port()));
        d.put("--rest-admin", String.valueOf(rest.admin()));
        d.put("--rest-max-body-size", ByteSize.format(rest.maxBodyBytes()));
        d.put("--rest-relay-cache-capacity", String.valueOf(rest.cacheCapacity()));
        d.put("--rest-relay-cache-size", ByteSize.format(rest.cacheBytes()));
        d.put("--rest-max-streams", String.valueOf(rest.maxStreams()));
        d.put("--rest-stream-buffer-size", ByteSize.format(rest.streamBufferBytes()));
        d.put("--rest-streams-memory", ByteSize.format(rest.streamsMemoryBytes()));
        d.put("--metrics-server", String.valueOf(node.metrics() != null));
        d.put("--metrics-server-address", node.metrics().address());
        d.put("--metrics-server-port", String.valueOf(node.metrics().port()));
        d.put("--log-level", node.logLevel());
        d.put("--log-format", node.logFormat().name());
        d.put("--shutdown-grace", DurationText.format(node.shutdownGrace()));
        return Map.copyOf(d);
    }
}
