/**
 * What REST may ask of a running node, and nothing of how it runs: {@link io.wakurelay.node.status.NodeStatus}
 * (identity, addresses, health, peers, log level) and {@link io.wakurelay.node.status.PeerView} (one peer as
 * {@code /admin/v1/peers} shows it) and {@link io.wakurelay.node.status.FilterSubscriberView} (a filter
 * subscriber as {@code /admin/v1/filter/subscriptions} shows it). The node implements them; REST reads them.
 */
package io.wakurelay.node.status;
