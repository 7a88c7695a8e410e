package io.wakurelay.relay;

import io.wakurelay.protocol.Envelope;
import io.wakurelay.relay.validation.RelayValidator;
import io.wakurelay.relay.validation.Screen;
import io.wakurelay.relay.validation.ValidationConfig;
import io.wakurelay.relay.validation.Verdict;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The asynchronous validation stage (docs/adr/0085-asynchronous-validation.md): the installed {@link RelayValidator}'s
 * {@code screen} runs where a message arrived, and what it sends to verification is held here, within the bounds of
 * {@link ValidationConfig} (messages and bytes held, and one peer's share of them), and verified on threads of the
 * stage's own ({@value #THREAD}), started when first needed. Each verdict goes to its {@link Verification} on the
 * thread that verified it, in whatever order the verifications end. A message that does not fit is not verified: the
 * caller ignores it ({@value #QUEUE_FULL}, {@value #PEER_BUDGET}), never rejects it, since it may be valid.
 *
 * <p>Each held envelope is released exactly once, by its verification's verdict or, when it is refused or still waits
 * for a thread at shutdown, by its {@link Verification#dropped}. The counts are guarded by this object's monitor,
 * which is never held while calling out (except to start a thread).
 */
final class ValidationRoom {
    private static final Logger log = LoggerFactory.getLogger(ValidationRoom.class);
    static final String THREAD = "relay-validation";
    /** Ignored: the stage holds as many messages or bytes as it may. */
    static final String QUEUE_FULL = "queue_full";
    /** Ignored: the sender's messages hold its whole budget. */
    static final String PEER_BUDGET = "peer_budget";
    /** Ignored: the validator threw. */
    static final String VALIDATOR_ERROR = "validator_error";
    /** Ignored: waiting for a thread when the relay shut down. */
    static final String SHUTDOWN = "shutdown";
    /** The reasons of the stage's own ignores, which a validator's may not take. */
    static final Set<String> OWN_REASONS = Set.of(QUEUE_FULL, PEER_BUDGET, VALIDATOR_ERROR, SHUTDOWN);
    private static final long ERROR_LOG_INTERVAL_NANOS = TimeUnit.MINUTES.toNanos(1);

    /** One message to verify: its envelope (whose reference the verification owns), its sender, and what follows. */
    abstract static class Verification implements Runnable {
        final Envelope envelope;
        /** Its sender, whose budget it takes; null for this node's own message and the pseudo-peer's. */
        final PeerState peer;
        final int bytes;
        private ValidationRoom room;

        Verification(Envelope envelope, PeerState peer) {
            this.envelope = envelope;
            this.peer = peer;
            this.bytes = envelope.retainedBytes();
        }

        /** The verdict, on the validation thread; releases or hands over the envelope. */
        abstract void verdict(Verdict verdict);

        /** Not verified ({@code reason}): refused by {@link #submit}, or waiting at shutdown; releases the envelope. */
        abstract void dropped(String reason);

        @Override
        public final void run() {
            room.verify(this);
        }
    }

    private final ValidationConfig config;
    private final RelayValidator validator;
    private final RouterEvents events;
    private final LongSupplier nanoTime;
    private final ThreadPoolExecutor executor;
    private final Sinks.Empty<Void> terminated = Sinks.empty();
    private final AtomicLong lastErrorLogged = new AtomicLong(Long.MIN_VALUE);
    // guarded by this
    private int held;
    private long heldBytes;
    private int running;
    private boolean closed;

    ValidationRoom(ValidationConfig config, RelayValidator validator, RouterEvents events, LongSupplier nanoTime) {
        this.config = config;
        this.validator = validator;
        this.events = events;
        this.nanoTime = nanoTime;
        Set<String> reasons = new LinkedHashSet<>(validator.reasons());
        for (String reason : reasons) {
            Verdict.checkReason(reason);
            if (OWN_REASONS.contains(reason)) {
                throw new IllegalArgumentException("the validation reason " + reason + " is the relay's own");
            }
        }
        reasons.addAll(OWN_REASONS);
        events.validatorInstalled(reasons);
        AtomicInteger threads = new AtomicInteger();
        this.executor = new ThreadPoolExecutor(config.threads(), config.threads(), 60, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), r -> {
                    Thread t = new Thread(r, THREAD + "-" + threads.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                }) {
            @Override
            protected void terminated() {
                ValidationRoom.this.terminated.tryEmitEmpty();
            }
        };
        executor.allowCoreThreadTimeOut(true);
        events.reading(Reading.VALIDATION_QUEUED, () -> counts()[0]);
        events.reading(Reading.VALIDATION_IN_FLIGHT, () -> counts()[1]);
        events.reading(Reading.VALIDATION_HELD_BYTES, () -> counts()[2]);
    }

    /** The validator's cheap checks, on the caller's thread; an exception is an ignore ({@value #VALIDATOR_ERROR}). */
    Screen screen(Envelope envelope) {
        Screen screen;
        try {
            screen = validator.screen(envelope);
        } catch (RuntimeException e) {
            validatorFailed("screen", e);
            screen = null;
        }
        if (screen == null) {
            screen = Verdict.ignore(VALIDATOR_ERROR);
        }
        events.screened(screen);
        return screen;
    }

    /**
     * Takes {@code v} to verify: null when taken (its {@link Verification#verdict} follows on a validation thread),
     * else why not ({@value #QUEUE_FULL}, {@value #PEER_BUDGET}, {@value #SHUTDOWN}), and then the caller still owns
     * the envelope.
     */
    String submit(Verification v) {
        synchronized (this) {
            if (closed) {
                return SHUTDOWN;
            }
            if (v.peer != null && v.peer.verifications >= config.peerInFlight()) {
                return PEER_BUDGET;
            }
            // an empty stage takes a message of any size: one larger than the bound would never be verified otherwise
            if (held >= config.queueMessages() || (held > 0 && heldBytes + v.bytes > config.queueBytes())) {
                return QUEUE_FULL;
            }
            v.room = this;
            try {
                executor.execute(v);
            } catch (RejectedExecutionException e) {
                return SHUTDOWN;
            }
            held++;
            heldBytes += v.bytes;
            if (v.peer != null) {
                v.peer.verifications++;
            }
            return null;
        }
    }

    private void verify(Verification v) {
        synchronized (this) {
            running++;
        }
        long start = nanoTime.getAsLong();
        Verdict verdict;
        try {
            verdict = validator.verify(v.envelope);
        } catch (RuntimeException e) {
            validatorFailed("verify", e);
            verdict = null;
        }
        if (verdict == null) {
            verdict = Verdict.ignore(VALIDATOR_ERROR);
        }
        events.verified(verdict, nanoTime.getAsLong() - start);
        synchronized (this) {
            running--;
        }
        release(v);
        try {
            v.verdict(verdict);
        } catch (RuntimeException e) {
            log.error("relay: carrying out a verdict failed", e);
        }
    }

    /** The stage no longer holds {@code v}: its bytes and its sender's budget are free again. */
    private synchronized void release(Verification v) {
        held--;
        heldBytes -= v.bytes;
        if (v.peer != null) {
            v.peer.verifications--;
        }
    }

    /**
     * Takes no more messages; those waiting for a thread are dropped now ({@value #SHUTDOWN}), those being verified
     * finish. Completes when the last has had its verdict.
     */
    Mono<Void> shutdown() {
        synchronized (this) {
            closed = true;
        }
        executor.shutdown();
        List<Runnable> waiting = new ArrayList<>();
        executor.getQueue().drainTo(waiting);
        for (Runnable r : waiting) {
            Verification v = (Verification) r;
            release(v);
            try {
                v.dropped(SHUTDOWN);
            } catch (RuntimeException e) {
                log.error("relay: dropping a verification at shutdown failed", e);
            }
        }
        return terminated.asMono();
    }

    /** Waiting for a thread, being verified, and the bytes of both: for the gauges. */
    private synchronized long[] counts() {
        return new long[]{held - running, running, heldBytes};
    }

    private void validatorFailed(String stage, RuntimeException e) {
        long now = nanoTime.getAsLong();
        long last = lastErrorLogged.get();
        if ((last == Long.MIN_VALUE || now - last >= ERROR_LOG_INTERVAL_NANOS) && lastErrorLogged.compareAndSet(last, now)) {
            log.atWarn().addKeyValue("stage", stage).addKeyValue("outcome", VALIDATOR_ERROR).setCause(e)
                    .log("relay: the validator threw; the message is ignored (logged at most once a minute)");
        }
    }
}
