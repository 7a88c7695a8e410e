package io.wakurelay.relay;

import java.util.function.Supplier;

/**
 * What every peer session of one relay shares.
 *
 * @param listenAddress the {@code host:port} this node announces in its Hello (known once the server is bound)
 */
record SessionContext(RelayConfig config, RelayMetrics metrics, PeerRegistry registry,
                      LocalSubscriptions subscriptions, ReceivePath receivePath, LocalDelivery delivery,
                      InboundByteCounter byteCounter, Supplier<String> listenAddress) {
}
