package io.wakurelay.relay;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.Violation;
import io.wakurelay.relay.validation.Screen;
import io.wakurelay.relay.validation.Verdict;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * What becomes of a message once judged. Accepted, it goes into the IWANT cache, to the mesh peers (the bytes
 * received) and to the local consumer; rejected, its id is remembered (a later copy is rejected again), and its sender
 * and the senders of the copies that waited for the verdict pay P₄ (for the validator's rejections they also count
 * towards {@code rejectionsBeforeDisconnect}); ignored, it is dropped and nobody pays.
 *
 * <p>The decoder judges every message; an installed validator ({@link ValidationRoom}) then screens it here and
 * decides at once or has it verified, and its verdict comes back on a validation thread, in any order. With a validator
 * a message is judged from its first copy's arrival to its verdict, and the copies that arrive meanwhile wait for it
 * ({@link PendingVerdicts}). Called on the thread that judged (an event loop, a validation thread); takes the router's
 * lock for what it guards and writes outside it. Without a validator nothing here allocates beyond what forwarding
 * needs.
 */
final class Verdicts {
    private enum Fate { ACCEPTED, REJECTED, REJECTED_BY_VALIDATOR, IGNORED }

    private static final String REJECTED_MESSAGES = "rejected_messages";

    private final int rejectionsBeforeDisconnect;
    private final RouterState state;
    private final SeenCache seen;
    private final MessageCache cache;
    private final RejectedMessages rejected;
    private final MeshCandidates candidates;
    private final HandOver handOver;
    private final RouterEvents events;
    private final ByteBufAllocator alloc;
    private final LongSupplier nanoTime;
    private final LongSupplier wallClockNanos;
    /** Null without a validator, and then so is {@link #pending}. */
    private final ValidationRoom room;
    private final PendingVerdicts pending;

    Verdicts(RelayConfig config, RouterState state, SeenCache seen, MessageCache cache, RejectedMessages rejected,
             MeshCandidates candidates, HandOver handOver, RouterEvents events, ByteBufAllocator alloc,
             LongSupplier nanoTime, LongSupplier wallClockNanos, ValidationRoom room) {
        this.rejectionsBeforeDisconnect = config.validation().rejectionsBeforeDisconnect();
        this.state = state;
        this.seen = seen;
        this.cache = cache;
        this.rejected = rejected;
        this.candidates = candidates;
        this.handOver = handOver;
        this.events = events;
        this.alloc = alloc;
        this.nanoTime = nanoTime;
        this.wallClockNanos = wallClockNanos;
        this.room = room;
        this.pending = room == null ? null : new PendingVerdicts(config.validation().maxWaitingCopies());
    }

    // =====================================================================================================
    // under the router's lock, as a copy arrives

    /** Under the lock: the first copy of {@code id} is judged from now on; with a validator, its copies wait. */
    void judging(MessageId id, String topic) {
        if (pending != null) {
            pending.open(id, topic);
        }
    }

    /**
     * Under the lock: a copy of a message seen before. A copy of a rejected one is rejected again; one of a message
     * being judged waits for its verdict; any other is a duplicate, a mesh delivery of its sender's.
     *
     * @return the disconnects to make once the lock is released
     */
    Outbox copy(PeerState from, String topic, MessageId id) {
        Violation firstCopy = rejected.reason(id);
        if (firstCopy != null) {
            events.invalid(firstCopy);
            if (from == null) {
                return Outbox.NONE;
            }
            from.score.invalidDelivery(topic);
            return firstCopy == Violation.VALIDATOR_REJECTED ? rejectedByValidator(from, Outbox.NONE) : Outbox.NONE;
        }
        events.duplicate();
        if (from != null) {
            PendingVerdicts.Copy copy = pending == null ? null : pending.await(id, from);
            if (copy == null) {
                from.score.meshDuplicateDelivery(topic);
            } else {
                events.copyWhileJudged(copy);
            }
        }
        return Outbox.NONE;
    }

    /** The judging of {@code id} failed on the way (a bug): its waiting copies are released, unscored. */
    void abandon(MessageId id) {
        if (pending != null) {
            synchronized (state) {
                pending.close(id);
            }
        }
    }

    // =====================================================================================================
    // verdicts

    /** A message refused before it had an id (signed, without data): rejected, its sender penalised (P₄). */
    void reject(PeerState from, String topic, Violation violation) {
        events.invalid(violation);
        if (from != null) {
            synchronized (state) {
                from.score.invalidDelivery(topic);
            }
        }
    }

    /** The decoder refused message {@code id}: rejected (remembered, P₄) or ignored; its waiting copies share it. */
    void invalid(PeerState from, String topic, MessageId id, Violation violation) {
        Outbox out;
        synchronized (state) {
            if (violation.penalised()) {
                rejected.add(id, violation);
                if (from != null) {
                    from.score.invalidDelivery(topic);
                }
            }
            out = settle(id, violation.penalised() ? Fate.REJECTED : Fate.IGNORED, Outbox.NONE);
        }
        events.invalid(violation);
        send(out);
    }

    /**
     * A message the decoder accepted, {@code envelope} its reference (now this method's): accepted at once without a
     * validator; with one, screened here, then accepted, rejected, ignored or held for verification.
     *
     * @param message the Message as received, what forwarding sends on (a slice the envelope keeps alive)
     */
    void judge(PeerState from, ByteBuf message, MessageId id, TopicEvents topicEvents, Envelope envelope, Source source,
               int messageBytes) {
        if (room == null) {
            accept(from, message, id, topicEvents, envelope, source, messageBytes);
            return;
        }
        Screen screen = room.screen(envelope);
        if (screen instanceof Verdict verdict) {
            carryOut(verdict, from, message, id, topicEvents, envelope, source, messageBytes);
            return;
        }
        PeerVerification verification = new PeerVerification(from, message, id, topicEvents, envelope, source,
                messageBytes);
        String refused = room.submit(verification);
        if (refused != null) {
            verification.dropped(refused);
        }
    }

    private void carryOut(Verdict verdict, PeerState from, ByteBuf message, MessageId id, TopicEvents topicEvents,
                          Envelope envelope, Source source, int messageBytes) {
        events.judged(verdict);
        if (verdict instanceof Verdict.Accept) {
            accept(from, message, id, topicEvents, envelope, source, messageBytes);
            return;
        }
        try {
            if (verdict instanceof Verdict.Reject) {
                rejectedByValidator(from, envelope.pubsubTopic(), id);
            } else {
                ignored(id, Violation.VALIDATOR_IGNORED);
            }
        } finally {
            envelope.release();
        }
    }

    private void accept(PeerState from, ByteBuf message, MessageId id, TopicEvents topicEvents, Envelope envelope,
                        Source source, int messageBytes) {
        events.validated();
        events.accepted(envelope.message().payloadSize());
        topicEvents.accepted(messageBytes, envelope.message().payloadSize());
        long timestamp = envelope.message().timestamp();
        if (timestamp > 0) {
            long delay = wallClockNanos.getAsLong() - timestamp;
            if (delay >= 0) {
                events.propagated(delay);
            }
        }
        if (pending != null) {
            synchronized (state) {
                settle(id, Fate.ACCEPTED, Outbox.NONE);
            }
        }
        ByteBuf rpc = RpcWriter.forward(alloc, message);
        topicEvents.sent(messageBytes, relay(id, envelope.pubsubTopic(), rpc, from, false));
        handOver.offer(envelope, source);
    }

    private void rejectedByValidator(PeerState from, String topic, MessageId id) {
        events.invalid(Violation.VALIDATOR_REJECTED);
        Outbox out;
        synchronized (state) {
            rejected.add(id, Violation.VALIDATOR_REJECTED);
            out = Outbox.NONE;
            if (from != null) {
                from.score.invalidDelivery(topic);
                out = rejectedByValidator(from, out);
            }
            out = settle(id, Fate.REJECTED_BY_VALIDATOR, out);
        }
        send(out);
    }

    /**
     * Ignored: dropped, nobody pays. {@link Violation#VALIDATION_THROTTLED}: not validated at all (the stage was full),
     * so the message is forgotten by the seen cache too, and a later copy from another peer is judged afresh rather
     * than dropped as a duplicate: a peer that floods cannot keep a valid message from this node by sending it first.
     */
    private void ignored(MessageId id, Violation violation) {
        events.invalid(violation);
        synchronized (state) {
            settle(id, Fate.IGNORED, Outbox.NONE);
            if (violation == Violation.VALIDATION_THROTTLED) {
                seen.forget(id);
            }
        }
    }

    private void send(Outbox out) {
        if (out != Outbox.NONE) {
            out.send(alloc, events);
        }
    }

    /** Under the lock: one more rejection of {@code peer}'s; past the bound it is disconnected (added to {@code out}). */
    private Outbox rejectedByValidator(PeerState peer, Outbox out) {
        if (!peer.rejectedPast(rejectionsBeforeDisconnect)) {
            return out;
        }
        Outbox disconnects = out == Outbox.NONE ? new Outbox() : out;
        disconnects.disconnect(peer, REJECTED_MESSAGES);
        return disconnects;
    }

    /** Under the lock: the copies that waited for message {@code id} share its fate. */
    private Outbox settle(MessageId id, Fate fate, Outbox out) {
        if (pending == null) {
            return out;
        }
        PendingVerdicts.Waiters waiters = pending.close(id);
        for (PeerState p : waiters.peers()) {
            switch (fate) {
                case ACCEPTED -> p.score.meshDuplicateDelivery(waiters.topic());
                case REJECTED -> p.score.invalidDelivery(waiters.topic());
                case REJECTED_BY_VALIDATOR -> {
                    p.score.invalidDelivery(waiters.topic());
                    out = rejectedByValidator(p, out);
                }
                case IGNORED -> { }
            }
        }
        return out;
    }

    // =====================================================================================================
    // forwarding

    /**
     * Caches {@code rpc} for IWANT and writes it to the mesh peers of {@code topic} (all peers of the topic above
     * the publish threshold for our own message with flood publish on), except {@code from} and the peers that
     * said IDONTWANT. Consumes the caller's reference to {@code rpc}. Any thread.
     *
     * @return how many peers it was written to (a peer whose queue was full is not counted)
     */
    int relay(MessageId id, String topic, ByteBuf rpc, PeerState from, boolean ownMessage) {
        if (rpc.readableBytes() > RelayConfig.MAX_OUTBOUND_RPC_BYTES) {
            // nwaku refuses RPCs over 150 KiB; the message stays delivered locally
            events.forwardSkipped();
            rpc.release();
            return 0;
        }
        List<PeerState> targets = new ArrayList<>();
        synchronized (state) {
            if (state.isClosed()) {
                rpc.release();
                return 0;
            }
            cache.put(id, topic, rpc.retain());
            if (from != null && !ownMessage) {
                from.score.firstDelivery(topic);
            }
            Collection<PeerState> to = ownMessage ? candidates.forOwnMessage(topic, nanoTime.getAsLong())
                    : state.mesh(topic);
            for (PeerState p : to) {
                if (p == from) {
                    continue;
                }
                if (p.dontWant.contains(id.prefix())) {
                    events.dontWantSaved();
                    continue;
                }
                targets.add(p);
            }
        }
        int written = 0;
        for (PeerState p : targets) {
            if (p.sender.send(rpc.retainedDuplicate(), PeerSender.Kind.MESSAGE)) {
                events.relayed();
                written++;
            }
        }
        rpc.release();
        return written;
    }

    /** Messages being judged (with a validator), for the tests of the bound. */
    int judgedNow() {
        synchronized (state) {
            return pending == null ? 0 : pending.size();
        }
    }

    /** A peer's message (or the pseudo-peer's) held for verification; what follows its verdict. */
    private final class PeerVerification extends ValidationRoom.Verification {
        private final ByteBuf message;
        private final MessageId id;
        private final TopicEvents topicEvents;
        private final Source source;
        private final int messageBytes;

        PeerVerification(PeerState from, ByteBuf message, MessageId id, TopicEvents topicEvents, Envelope envelope,
                         Source source, int messageBytes) {
            super(envelope, from);
            this.message = message;
            this.id = id;
            this.topicEvents = topicEvents;
            this.source = source;
            this.messageBytes = messageBytes;
        }

        @Override
        void verdict(Verdict verdict) {
            carryOut(verdict, peer, message, id, topicEvents, envelope, source, messageBytes);
        }

        @Override
        void dropped(String reason) {
            try {
                events.judged(Verdict.ignore(reason));
                ignored(id, Violation.VALIDATION_THROTTLED);
            } finally {
                envelope.release();
            }
        }
    }
}
