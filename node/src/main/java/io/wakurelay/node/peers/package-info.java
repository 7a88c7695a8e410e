/**
 * The peer manager (docs/discovery.md#peer-manager), after nwaku's {@code peer_manager.nim}, in flow order:
 * {@link io.wakurelay.node.peers.PeerManager}, discovery's {@code RecordSink}, takes the records the finders offer
 * (each with its {@link io.wakurelay.discovery.peers.Origin}) into the bounded {@code CandidateStore} of
 * {@code Candidate}s, and runs the connectivity loop: {@code PeerCensus} counts the connections (relay or service, in or out, newest first by
 * {@code ConnectedSince}) against the {@link io.wakurelay.node.peers.PeerTargets} split of
 * {@code --max-connections}, {@code ConnectionPruner} closes the excess, and candidates out of their backoff are
 * dialled up to the outbound relay target, at the addresses {@code DialAddresses} allows by the {@code DialPolicy}
 * of {@code AddressScope}s (names resolved by a {@code NameResolver}, {@code NettyNameResolver}, without blocking);
 * {@code PeerManagerMetrics} counts it all;
 * {@link io.wakurelay.node.peers.CandidateView} is a candidate for the admin API.
 */
package io.wakurelay.node.peers;
