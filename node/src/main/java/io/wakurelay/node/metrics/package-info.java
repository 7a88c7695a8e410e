/**
 * {@code /metrics}: {@link io.wakurelay.node.metrics.NodeMetrics} is the node's Prometheus registry (JVM, process,
 * Netty memory via {@link io.wakurelay.node.metrics.ProcessMemory}, the message-path counters; every component
 * registers its own meters on it; {@link io.wakurelay.node.metrics.ConnectedPeers} is nwaku's
 * {@code waku_connected_peers}, counted at each scrape), served by {@link io.wakurelay.node.metrics.MetricsServer} as
 * {@link io.wakurelay.node.metrics.MetricsConfig} says. The names are the contract of docs/metrics.md.
 */
package io.wakurelay.node.metrics;
