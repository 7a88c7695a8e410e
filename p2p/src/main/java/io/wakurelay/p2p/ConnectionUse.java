package io.wakurelay.p2p;

import java.util.Set;

/**
 * What an upgraded connection has been good for, as {@link ConnectionTrimmer} judges it: whether identify told who the
 * peer is, whether the peer names or used a protocol this host serves, and since when no stream has been open. Only
 * streams of protocols beyond the basics count (identify, identify push and ping are what every libp2p peer speaks,
 * and a squatter answers ping as readily as anyone). Written on the connection's event loop, read from the
 * trimmer's sweep.
 */
final class ConnectionUse {
    /** The protocols every connection speaks, which say nothing of its use. */
    static final Set<String> BASICS = Set.of(IdentifyService.PROTOCOL, IdentifyService.PUSH_PROTOCOL,
            PingService.PROTOCOL);

    /** Where identify stands. */
    enum Identify {
        /** Asked, not answered yet. */
        PENDING,
        /** Answered: the peer's record is known. */
        DONE,
        /** Refused ({@code na}), broken, or not answered within {@link IdentifyService#TIMEOUT}. */
        FAILED
    }

    private volatile Identify identify = Identify.PENDING;
    private volatile int openStreams;
    private volatile boolean used;
    private volatile long idleSinceNanos;

    ConnectionUse(long establishedNanos) {
        this.idleSinceNanos = establishedNanos;
    }

    Identify identify() {
        return identify;
    }

    /** identify succeeded (a request or a push); it stays done. */
    void identified() {
        identify = Identify.DONE;
    }

    /** identify failed (for now: a late answer or a push still makes it done); one that succeeded stays done. */
    void identifyFailed() {
        if (identify == Identify.PENDING) {
            identify = Identify.FAILED;
        }
    }

    void streamOpened(String protocol) {
        if (!BASICS.contains(protocol)) {
            used = true;
            openStreams++;
        }
    }

    void streamClosed(String protocol, long nowNanos) {
        if (!BASICS.contains(protocol) && --openStreams == 0) {
            idleSinceNanos = nowNanos;
        }
    }

    /** Streams open now, identify's and ping's not counted. */
    int openStreams() {
        return openStreams;
    }

    /** Whether a stream of a protocol beyond the basics was ever open, either way. */
    boolean used() {
        return used;
    }

    /** How long no stream has been open (0 while one is). */
    long idleNanos(long nowNanos) {
        return openStreams > 0 ? 0 : nowNanos - idleSinceNanos;
    }
}
