package io.wakurelay.relay.validation;

import io.soabase.recordbuilder.core.RecordBuilder;

/**
 * The bounds of the relay's validation stage: what {@link RelayValidator#verify} may cost the node and what one peer
 * may take of it (docs/relay.md, "Validation", with the memory each allows). Used only when a validator is installed:
 * without one no thread is started and nothing is held.
 *
 * @param threads                    threads that verify; the stage's own, started on first use
 * @param queueMessages              messages held for verification, waiting for a thread or being verified; past it a
 *                                   message to verify is ignored ({@code queue_full}), not rejected
 * @param queueBytes                 bytes those messages keep alive (each its envelope's {@code retainedBytes()}: the
 *                                   RPC it arrived in); past it likewise, except that an empty queue takes a message
 *                                   of any size
 * @param peerInFlight               one peer's messages held for verification; past it that peer's next message to
 *                                   verify is ignored ({@code peer_budget}), so that a peer whose messages are slow to
 *                                   verify takes at most this much of the queue from the others. Local publishes and
 *                                   the load generator's pseudo-peer have no per-peer budget, only the queue's bounds
 * @param maxWaitingCopies           peers whose copies of a message being judged wait for its verdict and are scored
 *                                   with it (as go-libp2p-pubsub scores duplicates delivered during validation); a
 *                                   copy from a peer past it is a duplicate no verdict scores
 * @param rejectionsBeforeDisconnect validator rejections of one peer's messages (and of its copies of rejected ones),
 *                                   fading as the invalid-message score P₄ does, at which the peer is disconnected
 *                                   ({@code waku_relay_peer_disconnects_total{reason="rejected_messages"}})
 */
@RecordBuilder
public record ValidationConfig(int threads, int queueMessages, long queueBytes, int peerInFlight, int maxWaitingCopies,
                               int rejectionsBeforeDisconnect) {

    public static final ValidationConfig DEFAULTS = new ValidationConfig(2, 512, 32L << 20, 16, 16, 10);

    public ValidationConfig {
        between("validation threads", threads, 1, 256);
        between("validation queue messages", queueMessages, threads, 1 << 20);
        between("validation queue bytes", queueBytes, 1, Integer.MAX_VALUE);
        between("validation peer in flight", peerInFlight, 1, queueMessages);
        between("validation max waiting copies", maxWaitingCopies, 0, 1024);
        between("validation rejections before disconnect", rejectionsBeforeDisconnect, 1, 1 << 20);
    }

    private static void between(String name, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + " must be between " + min + " and " + max + ", was " + value);
        }
    }

    public ValidationConfigBuilder toBuilder() {
        return ValidationConfigBuilder.builder(this);
    }
}
