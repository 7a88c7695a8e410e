package io.wakurelay.relay;

import io.wakurelay.protocol.Violation;
import io.wakurelay.relay.validation.Screen;
import io.wakurelay.relay.validation.Verdict;

import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * What the router and its rooms do that is worth observing, told to one sink, as go-libp2p-pubsub tells its
 * {@code RawTracer}: {@link RelayMetrics} turns the events into the meters of docs/metrics.md, and a test can listen
 * beside it ({@link #both}) to watch the router in one place. Called on the receive path and under the router's
 * lock: a listener counts and returns; it never blocks and never calls back into the router. What gauges read when
 * scraped is told once, as a {@link Reading} and its supplier.
 */
interface RouterEvents {
    /** A message arrived from a peer, before dedup and validation. */
    void receivedFromPeer();

    /** This node published a message (REST, lightpush, the loadgen). */
    void publishedLocally();

    /** A copy of a message already seen. */
    void duplicate();

    /** A copy whose id was found by comparing its bytes with a cached message's, not by hashing them. */
    void idByBytes();

    /** A message not accepted, with the reason (whether its sender is penalised is the violation's). */
    void invalid(Violation violation);

    /** A message from a peer passed validation. */
    void validated();

    /** A message passed dedup and validation, from a peer or published here: {@code payloadBytes} is its payload. */
    void accepted(int payloadBytes);

    /** Receive time minus the timestamp of a message from a peer. */
    void propagated(long delayNanos);

    /** An accepted message not forwarded: its RPC would exceed what peers take. */
    void forwardSkipped();

    /** A copy not sent because the peer said IDONTWANT. */
    void dontWantSaved();

    /** A copy of a message written to a peer. */
    void relayed();

    /** {@code count} control messages of {@code kind} in a peer's RPC, counted before any is parsed. */
    void controlReceived(ControlKind kind, int count);

    /** {@code count} control messages of {@code kind} ignored wholly or in part for {@code reason}. */
    void controlIgnored(ControlKind kind, ControlIgnored reason, int count);

    /** An RPC not sent to a peer whose queue was full. */
    void peerDrop(PeerSender.Kind kind);

    /** A peer this node disconnected: graylisted, slow_consumer or cluster_mismatch. */
    void disconnected(String reason);

    /** A peer's relay stream reset by this node: rpc_read_timeout or replaced. */
    void inboundStreamReset(String reason);

    /** This node joined {@code topic}: what happens on it is told to the sink returned, closed when it leaves. */
    TopicEvents joined(String topic);

    /** The peers of each topic this node relays or keeps a fanout for, after a change; other topics have none. */
    void topicPeers(Map<String, RouterState.TopicPeers> byTopic);

    /** The connected peers by score band, at a heartbeat. */
    void peersByScore(Map<String, Integer> byBand);

    /** {@code value} is what {@code reading} reads when scraped (called in {@code value}'s owner's constructor). */
    void reading(Reading reading, Supplier<Number> value);

    /** A validator was installed whose verdicts give {@code reasons} (the relay's own ignore reasons among them). */
    void validatorInstalled(Set<String> reasons);

    /** The validator's cheap checks decided {@code screen} for a message. */
    void screened(Screen screen);

    /** A verification took {@code nanos} and ended in {@code verdict}. */
    void verified(Verdict verdict, long nanos);

    /**
     * A message's validation ended in {@code verdict}: the screen's, the verification's, or the relay's own ignore
     * (the validation stage was full, or shut down).
     */
    void judged(Verdict verdict);

    /** A copy of a message being validated arrived: its sender waits for the verdict, or not. */
    void copyWhileJudged(PendingVerdicts.Copy copy);

    /** Every event to {@code first}, then to {@code second}. */
    static RouterEvents both(RouterEvents first, RouterEvents second) {
        return new RouterEvents() {
            @Override
            public void receivedFromPeer() {
                first.receivedFromPeer();
                second.receivedFromPeer();
            }

            @Override
            public void publishedLocally() {
                first.publishedLocally();
                second.publishedLocally();
            }

            @Override
            public void duplicate() {
                first.duplicate();
                second.duplicate();
            }

            @Override
            public void idByBytes() {
                first.idByBytes();
                second.idByBytes();
            }

            @Override
            public void invalid(Violation violation) {
                first.invalid(violation);
                second.invalid(violation);
            }

            @Override
            public void validated() {
                first.validated();
                second.validated();
            }

            @Override
            public void accepted(int payloadBytes) {
                first.accepted(payloadBytes);
                second.accepted(payloadBytes);
            }

            @Override
            public void propagated(long delayNanos) {
                first.propagated(delayNanos);
                second.propagated(delayNanos);
            }

            @Override
            public void forwardSkipped() {
                first.forwardSkipped();
                second.forwardSkipped();
            }

            @Override
            public void dontWantSaved() {
                first.dontWantSaved();
                second.dontWantSaved();
            }

            @Override
            public void relayed() {
                first.relayed();
                second.relayed();
            }

            @Override
            public void controlReceived(ControlKind kind, int count) {
                first.controlReceived(kind, count);
                second.controlReceived(kind, count);
            }

            @Override
            public void controlIgnored(ControlKind kind, ControlIgnored reason, int count) {
                first.controlIgnored(kind, reason, count);
                second.controlIgnored(kind, reason, count);
            }

            @Override
            public void peerDrop(PeerSender.Kind kind) {
                first.peerDrop(kind);
                second.peerDrop(kind);
            }

            @Override
            public void disconnected(String reason) {
                first.disconnected(reason);
                second.disconnected(reason);
            }

            @Override
            public void inboundStreamReset(String reason) {
                first.inboundStreamReset(reason);
                second.inboundStreamReset(reason);
            }

            @Override
            public TopicEvents joined(String topic) {
                return TopicEvents.both(first.joined(topic), second.joined(topic));
            }

            @Override
            public void topicPeers(Map<String, RouterState.TopicPeers> byTopic) {
                first.topicPeers(byTopic);
                second.topicPeers(byTopic);
            }

            @Override
            public void peersByScore(Map<String, Integer> byBand) {
                first.peersByScore(byBand);
                second.peersByScore(byBand);
            }

            @Override
            public void reading(Reading reading, Supplier<Number> value) {
                first.reading(reading, value);
                second.reading(reading, value);
            }

            @Override
            public void validatorInstalled(Set<String> reasons) {
                first.validatorInstalled(reasons);
                second.validatorInstalled(reasons);
            }

            @Override
            public void screened(Screen screen) {
                first.screened(screen);
                second.screened(screen);
            }

            @Override
            public void verified(Verdict verdict, long nanos) {
                first.verified(verdict, nanos);
                second.verified(verdict, nanos);
            }

            @Override
            public void judged(Verdict verdict) {
                first.judged(verdict);
                second.judged(verdict);
            }

            @Override
            public void copyWhileJudged(PendingVerdicts.Copy copy) {
                first.copyWhileJudged(copy);
                second.copyWhileJudged(copy);
            }
        };
    }
}
