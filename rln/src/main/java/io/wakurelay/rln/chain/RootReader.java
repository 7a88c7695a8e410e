package io.wakurelay.rln.chain;

import io.wakurelay.rln.chain.ChainMetrics.Trigger;
import java.time.Duration;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One read of the membership contract, as nwaku's {@code updateRoots} and {@code trackRootChanges}: {@code root()};
 * when the root differs from the newest held, it becomes the newest of the window, and {@code nextFreeIndex()} is read
 * for {@code waku_rln_number_registered_memberships}. A failed read changes nothing the node holds.
 *
 * <p>Whether reading works is a state, logged once per change: a WARN when reads start failing (with why, and how many
 * roots are kept), an INFO when a read works again; a failing read in between is only counted. {@code nextFreeIndex()}
 * has a state of its own, logged the same way; while it fails, it is read again at every read.
 *
 * <p>Reads happen on one thread at a time (the start's, then the {@code rln-chain} thread's); {@link #health()} and
 * {@link #ageSeconds()} may be asked from any thread.
 */
final class RootReader {
    private static final Logger log = LoggerFactory.getLogger(RootReader.class);

    private enum State { STARTING, READING, FAILING }

    private final Endpoints endpoints;
    private final RootWindow window;
    private final ChainMetrics metrics;
    private final String contract;
    private final Duration pollInterval;
    private final LongSupplier clock;
    private final long startNanos;
    private final String rootCall = Abi.callData(Abi.ROOT);
    private final String countCall = Abi.callData(Abi.NEXT_FREE_INDEX);

    private State state = State.STARTING;
    private long failedReads;
    private long failingSince;
    private boolean countStale = true;
    private boolean countFailing;
    private long memberships = -1;
    private volatile String failure;
    private volatile long lastGoodNanos;
    private volatile boolean readOnce;

    RootReader(Endpoints endpoints, RootWindow window, ChainMetrics metrics, String contract, Duration pollInterval,
               LongSupplier clock) {
        this.endpoints = endpoints;
        this.window = window;
        this.metrics = metrics;
        this.contract = contract;
        this.pollInterval = pollInterval;
        this.clock = clock;
        this.startNanos = clock.getAsLong();
    }

    /** Reads the root (and the count when the root changed): null when it worked, else why it did not. */
    RpcException read(Trigger trigger) {
        metrics.read(trigger);
        byte[] root;
        try {
            root = endpoints.call(contract, rootCall, returned -> Abi.rootToField(Abi.firstWord(returned)));
        } catch (RpcException e) {
            failed(e);
            return e;
        }
        if (window.add(root)) {
            log.atDebug().addKeyValue("root", Abi.hex(root)).addKeyValue("roots", window.size())
                    .log("RLN: new membership root");
            countStale = true;
        }
        succeeded();
        if (countStale) {
            readCount();
        }
        return null;
    }

    private void readCount() {
        try {
            long count = endpoints.call(contract, countCall, returned -> Abi.unsignedLong(Abi.firstWord(returned)));
            metrics.memberships(count);
            memberships = count;
            countStale = false;
            if (countFailing) {
                log.atInfo().addKeyValue("memberships", count).log("RLN: nextFreeIndex() read again");
                countFailing = false;
            }
        } catch (RpcException e) {
            if (!countFailing) {
                log.atWarn().addKeyValue("contract", String.valueOf(contract)).addKeyValue("reason", e.getMessage())
                        .log("RLN: cannot read nextFreeIndex(); waku_rln_number_registered_memberships keeps its value"
                                + " until a read works");
                countFailing = true;
            }
        }
    }

    private void succeeded() {
        long now = clock.getAsLong();
        if (state == State.FAILING) {
            log.atInfo().addKeyValue("address", Endpoints.describe(endpoints.current())).addKeyValue("failedReads", failedReads)
                    .addKeyValue("failingSeconds", (now - failingSince) / 1_000_000_000L).addKeyValue("roots", window.size())
                    .log("RLN: the membership roots are read again");
        }
        state = State.READING;
        failedReads = 0;
        failure = null;
        lastGoodNanos = now;
        readOnce = true;
    }

    private void failed(RpcException e) {
        failedReads++;
        failure = e.failure().text() + ": " + e.getMessage();
        if (state != State.FAILING) {
            failingSince = clock.getAsLong();
            log.atWarn().addKeyValue("contract", String.valueOf(contract)).addKeyValue("reason", e.getMessage())
                    .addKeyValue("roots", window.size()).addKeyValue("pollMs", pollInterval.toMillis())
                    .log("RLN: cannot read the membership roots; keeping the roots held, reading again at every poll");
            state = State.FAILING;
        }
    }

    /** "Ready" while the window holds a root; else why it holds none. */
    String health() {
        if (window.size() > 0) {
            return "Ready";
        }
        String why = failure;
        return why == null ? "no membership root read from the chain yet"
                : "no membership root read from the chain yet: " + why;
    }

    /** Seconds since the last good read; since the start while none was good. */
    double ageSeconds() {
        long since = readOnce ? lastGoodNanos : startNanos;
        return (clock.getAsLong() - since) / 1e9;
    }

    /** The last {@code nextFreeIndex()} read, -1 before the first. Reading thread only. */
    long memberships() {
        return memberships;
    }
}
