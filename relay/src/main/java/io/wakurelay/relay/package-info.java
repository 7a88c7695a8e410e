/**
 * Waku relay: gossipsub v1.1 on {@code /vac/waku/relay/2.0.0}, and Waku metadata (docs/relay.md). In flow order:
 * <ul>
 * <li>{@link io.wakurelay.relay.RelayConfig}, {@link io.wakurelay.relay.GossipParams},
 *     {@link io.wakurelay.relay.ScoreParams}, {@link io.wakurelay.relay.PeerLimits}: topics, cluster, limits, router
 *     and scoring parameters, and what one peer's control may make the node do and hold; the validation stage's
 *     bounds are in package {@code validation}, with what a validator implements.</li>
 * <li>{@link io.wakurelay.relay.Relay}: start on a host (with a validator or without), publish, subscribe, peers,
 *     shutdown; {@code LocalPublish}: this node's own messages, validated, sent and handed over;
 *     {@code ReadConfirmations}: when the peers have read a subscription change.</li>
 * <li>{@code RelayStreamReader}: a peer's relay stream, RPC by RPC, paused when the local consumer is behind;
 *     {@link io.wakurelay.relay.PseudoPeer}: the same path for an in-process pseudo-peer (the load generator).</li>
 * <li>{@code RpcReader}: one RPC read without copying message data; its control counted before it is parsed.</li>
 * <li>{@code GossipRouter}: the receive path (message id, seen cache, decode, then {@code Verdicts}), peers and their
 *     subscriptions, control, the heartbeat; its topology has one owner, {@code RouterState}, whose monitor is the
 *     router's one lock, and the rooms work on it under that lock: {@code ControlHandler}: control (GRAFT, PRUNE,
 *     IHAVE, IWANT, IDONTWANT), within each peer's {@code ControlBudget}, what it ignores counted by
 *     {@code ControlKind} and {@code ControlIgnored}; {@code Heartbeat}: mesh, fanout, gossip, promises, decay;
 *     {@code OwnSubscriptions}: the topics this node relays, joined and left, and what peers must hear of it;
 *     {@code MeshCandidates}: who may join a mesh or fanout, and where this node's own message goes;
 *     {@code RouterViews}: copies of its peers and meshes; {@code Promises}: IHAVE's promises. What they decide to
 *     write goes into an {@code Outbox}, written after the lock is released.</li>
 * <li>{@code ValidationRoom}: an installed validator's asynchronous stage (its threads, its bounds, each peer's
 *     budget); {@code PendingVerdicts}: the copies waiting for a message's verdict; {@code Verdicts}: what becomes of
 *     a judged message (accepted: cached, forwarded, handed over; rejected: remembered, penalised; ignored), on the
 *     thread that judged it.</li>
 * <li>{@code MessageId}, {@code MessageIds}, {@code SeenCache} ({@code LongSet}), {@code MessageCache},
 *     {@code RejectedMessages}: ids, dedup, the IWANT cache, and the rejected messages whose copies are rejected
 *     too.</li>
 * <li>{@code PeerState} ({@code DontWantSet}), {@code PeerScore}, {@code RetainedScores}: what the router knows of
 *     a peer, its IDONTWANT ids, its score, and the scores of disconnected peers.</li>
 * <li>{@code RpcWriter}: RPCs, a message's as a few header bytes around the bytes received.</li>
 * <li>{@code PeerSender}: a peer's bounded outbound queue on the relay stream this node opened.</li>
 * <li>{@code HandOver} ({@link io.wakurelay.relay.Source}): accepted envelopes to the one local consumer, with
 *     backpressure.</li>
 * <li>{@code MetadataProtocol}: cluster and shards, asked and answered.</li>
 * <li>{@link io.wakurelay.relay.PublishResult}, {@link io.wakurelay.relay.RelayPeer},
 *     {@link io.wakurelay.relay.RelayBusyException}, {@link io.wakurelay.relay.RelayClosedException},
 *     {@link io.wakurelay.relay.MessageRejectedException}.</li>
 * <li>{@code RouterEvents}: everything the router and its rooms do worth observing, told to one sink (as
 *     go-libp2p-pubsub's RawTracer), with what the gauges read ({@code Reading}) and each topic's own sink
 *     ({@code TopicEvents}); {@code RelayMetrics}, its listener: the {@code waku_relay_*} and
 *     {@code libp2p_gossipsub_*} meters, with {@code ValidationMeters} when a validator is installed;
 *     {@code SubscribedTopicMeters}: nwaku's per-topic and per-shard meters of each topic this node relays.</li>
 * </ul>
 */
package io.wakurelay.relay;
