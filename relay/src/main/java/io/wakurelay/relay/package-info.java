/**
 * Waku relay: gossipsub v1.1 on {@code /vac/waku/relay/2.0.0}, and Waku metadata (docs/relay.md). In flow order:
 * <ul>
 * <li>{@link io.wakurelay.relay.RelayConfig}, {@link io.wakurelay.relay.GossipParams},
 *     {@link io.wakurelay.relay.ScoreParams}, {@link io.wakurelay.relay.PeerLimits}: topics, cluster, limits, router
 *     and scoring parameters, and what one peer's control may make the node do and hold.</li>
 * <li>{@link io.wakurelay.relay.Relay}: start on a host, publish, inject, subscribe, peers, shutdown.</li>
 * <li>{@code RelayStreamReader}: a peer's relay stream, RPC by RPC, paused when the local consumer is behind.</li>
 * <li>{@code RpcReader}: one RPC read without copying message data; its control counted before it is parsed.</li>
 * <li>{@code GossipRouter}: the receive path (message id, seen cache, decode, forward, hand over), peers and
 *     their subscriptions, under one lock; on its state and under that lock, {@code ControlHandler}: control (GRAFT,
 *     PRUNE, IHAVE, IWANT, IDONTWANT), within each peer's {@code ControlBudget}, what it ignores counted by
 *     {@code ControlKind} and {@code ControlIgnored}; {@code Heartbeat}: mesh, fanout, gossip, promises, decay; {@code OwnSubscriptions}: the topics this
 *     node relays, joined and left, and what peers must hear of it; {@code RouterViews}: copies of its peers and
 *     meshes;
 *     {@code MeshCandidates}: who may join a mesh or fanout; {@code Promises}: IHAVE's promises. What they decide
 *     to write goes into an {@code Outbox}, written after the lock is released.</li>
 * <li>{@code MessageId}, {@code SeenCache} ({@code LongSet}), {@code MessageCache}: dedup and the IWANT cache.</li>
 * <li>{@code PeerState} ({@code DontWantSet}), {@code PeerScore}, {@code RetainedScores}: what the router knows of
 *     a peer, its IDONTWANT ids, its score, and the scores of disconnected peers.</li>
 * <li>{@code RpcWriter}: RPCs, a message's as a few header bytes around the bytes received.</li>
 * <li>{@code PeerSender}: a peer's bounded outbound queue on the relay stream this node opened.</li>
 * <li>{@code HandOver} ({@code Source}): accepted envelopes to the one local consumer, with backpressure.</li>
 * <li>{@code MetadataProtocol}: cluster and shards, asked and answered.</li>
 * <li>{@link io.wakurelay.relay.PublishResult}, {@link io.wakurelay.relay.RelayPeer},
 *     {@link io.wakurelay.relay.RelayBusyException}, {@link io.wakurelay.relay.RelayClosedException}.</li>
 * <li>{@code RouterEvents}: everything the router and its rooms do worth observing, told to one sink (as
 *     go-libp2p-pubsub's RawTracer); {@code RelayMetrics}, its listener: the {@code waku_relay_*} and
 *     {@code libp2p_gossipsub_*} meters;
 *     {@code SubscribedTopicMeters}: nwaku's per-topic and per-shard meters of each topic this node relays.</li>
 * </ul>
 */
package io.wakurelay.relay;
