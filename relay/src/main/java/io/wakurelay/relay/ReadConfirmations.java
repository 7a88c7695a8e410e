package io.wakurelay.relay;

import io.netty.buffer.ByteBuf;
import io.wakurelay.p2p.connection.Connection;
import io.wakurelay.p2p.connection.Stream;
import io.wakurelay.p2p.connection.StreamHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Knows when a peer has read what this node wrote to it: gossipsub has no acknowledgement, but a connection's frames
 * are read in order, so the peer's answer to a stream this node opens after writing comes after the peer read (and
 * its router took in) what was written before. The stream is a ping stream, opened and closed without a ping: the
 * answer to its negotiation is the confirmation, whatever it is (a peer that does not speak ping says so, after
 * reading the same bytes).
 *
 * <p>It makes {@link Relay#subscribe} answer only once every relay peer has taken the new subscription in, so that a
 * peer that publishes on the topic right after reaches this node. Before, the answer came once the change was queued:
 * a peer busy for a few tens of milliseconds (a loaded machine, measured with two nodes: 10 to 60 ms) published
 * before it read the subscription, past this node, and the message was lost to it (issue 41 item 8).
 *
 * <p>Bounded: one stream per peer at a time and one confirmation waiting besides, shared by all who come while it
 * waits ({@link PeerReads}); at most {@link #TIMEOUT} for all; a peer that does not answer in time, or whose
 * connection ends, is not waited for. Not a guarantee for a peer whose credit for this node's relay stream is used
 * up: the stream's data then waits while the new stream's frames go on.
 */
final class ReadConfirmations {
    private static final Logger log = LoggerFactory.getLogger(ReadConfirmations.class);
    /** libp2p's ping (ping/ping.md), which every libp2p node serves; the stream carries no ping. */
    static final String PROTOCOL = "/ipfs/ping/1.0.0";
    /** How long a subscription waits for its peers at most. */
    static final Duration TIMEOUT = Duration.ofSeconds(2);

    private ReadConfirmations() {
    }

    /**
     * Completes once each of {@code peers} read what was written to it before this call, or at {@link #TIMEOUT}. The
     * confirmations run whether or not anyone waits for them.
     */
    static Mono<Void> of(Collection<PeerState> peers) {
        if (peers.isEmpty()) {
            return Mono.empty();
        }
        List<Mono<Void>> each = new ArrayList<>(peers.size());
        for (PeerState peer : peers) {
            each.add(peer.reads.after(peer.connection));
        }
        return Mono.when(each).timeout(TIMEOUT, Mono.fromRunnable(() -> log.atDebug()
                .addKeyValue("timeout", TIMEOUT.toString())
                .log("not every relay peer confirmed reading a subscription change in time")));
    }

    /**
     * One peer's confirmations: at most one stream open at a time, and at most one confirmation waiting for it, shared
     * by every caller that comes while it waits (it opens its stream after all their writes). So a client that
     * subscribes in a loop, or a peer that never answers, holds two sinks per peer, not a chain of them.
     */
    static final class PeerReads {
        /** A confirmation's stream is open (or being opened). */
        private boolean running;
        /** The confirmation that starts when the running one ends; null when none waits. */
        private Sinks.Empty<Void> waiting;

        /** Completes once the peer read what was written to it before this call (or its confirmation gave up). */
        Mono<Void> after(Connection connection) {
            Sinks.Empty<Void> mine;
            boolean start;
            synchronized (this) {
                if (waiting == null) {
                    waiting = Sinks.empty();
                }
                mine = waiting;
                start = !running;
                if (start) {
                    running = true;
                    waiting = null;
                }
            }
            if (start) {
                run(connection, mine);
            }
            return mine.asMono();
        }

        private void run(Connection connection, Sinks.Empty<Void> done) {
            confirm(connection).doFinally(signal -> {
                done.tryEmitEmpty();
                Sinks.Empty<Void> next;
                synchronized (this) {
                    next = waiting;
                    waiting = null;
                    running = next != null;
                }
                if (next != null) {
                    run(connection, next);
                }
            }).subscribe(null, e -> log.debug("read confirmation failed", e));
        }
    }

    private static Mono<Void> confirm(Connection connection) {
        if (connection == null || !connection.isOpen()) {
            return Mono.empty();
        }
        return connection.openStream(PROTOCOL, Unused.HANDLER)
                .doOnNext(Stream::closeWrite) // the peer's echo closes its side too: the stream ends
                .then()
                .timeout(TIMEOUT)
                // not spoken, reset, or the connection ended: an answer (it read the bytes) or nothing left to wait for
                .onErrorResume(e -> Mono.empty());
    }

    /** The stream carries nothing; whatever comes is dropped. */
    private enum Unused implements StreamHandler {
        HANDLER;

        @Override
        public void onData(Stream stream, ByteBuf data) {
            data.release();
        }
    }
}
