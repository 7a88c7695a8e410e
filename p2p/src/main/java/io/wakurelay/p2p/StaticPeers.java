package io.wakurelay.p2p;

import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;

/**
 * Peers this host keeps connected to: each is dialled at once and again whenever its connection ends or a dial
 * fails, after a wait that doubles from {@link HostConfig#redialMinBackoff()} up to
 * {@link HostConfig#redialMaxBackoff()}, with ±20 % jitter so that restarted nodes do not dial in lockstep.
 * A connection counts as the static peer's only when it was dialled to it.
 */
final class StaticPeers {
    private static final Logger log = LoggerFactory.getLogger(StaticPeers.class);

    private final Function<Multiaddr, Mono<HostConnection>> dial;
    private final Duration minBackoff;
    private final Duration maxBackoff;
    private final Map<PeerId, Redialer> peers = new ConcurrentHashMap<>();
    private volatile boolean closed;

    StaticPeers(Function<Multiaddr, Mono<HostConnection>> dial, Duration minBackoff, Duration maxBackoff) {
        this.dial = dial;
        this.minBackoff = minBackoff;
        this.maxBackoff = maxBackoff;
    }

    /**
     * Adds a peer (its address names its peer id) and dials it; a peer already present keeps its dialler. Returns when
     * the peer's first dial has ended, connected or failed (at once for a peer already present, or once closed).
     */
    CompletableFuture<Void> add(Multiaddr address) {
        PeerId peer = address.peerId().orElseThrow(() -> new IllegalArgumentException(
                "a static peer's address must end in /p2p/<peer id>: " + address));
        if (closed) {
            return CompletableFuture.completedFuture(null);
        }
        Redialer redialer = peers.computeIfAbsent(peer, p -> new Redialer(address));
        redialer.dialNow();
        return redialer.firstDial;
    }

    /** Stops keeping the peer connected (its connection, if any, stays until closed by someone). */
    boolean remove(PeerId peer) {
        Redialer r = peers.remove(peer);
        if (r != null) {
            r.stop();
        }
        return r != null;
    }

    boolean contains(PeerId peer) {
        return peers.containsKey(peer);
    }

    List<Multiaddr> addresses() {
        return peers.values().stream().map(r -> r.address).toList();
    }

    int size() {
        return peers.size();
    }

    void close() {
        closed = true;
        peers.values().forEach(Redialer::stop);
        peers.clear();
    }

    private final class Redialer {
        private final Multiaddr address;
        /** Ends with the first dial, however it ended: what a node's readiness waits for, as nwaku's start does. */
        private final CompletableFuture<Void> firstDial = new CompletableFuture<>();
        private int failures;
        private boolean dialling;
        private boolean stopped;
        private Disposable timer;

        Redialer(Multiaddr address) {
            this.address = address;
        }

        synchronized void dialNow() {
            if (timer != null) {
                timer.dispose();
                timer = null;
            }
            attempt();
        }

        private synchronized void attempt() {
            if (stopped || closed || dialling) {
                return;
            }
            timer = null;
            dialling = true;
            dial.apply(address).subscribe(this::connected, this::failed);
        }

        private void connected(HostConnection connection) {
            synchronized (this) {
                failures = 0;
                dialling = false;
            }
            firstDial.complete(null);
            if (connection.isOutbound()) {
                connection.markStaticPeer();
            }
            log.atInfo().addKeyValue("peer", String.valueOf(connection.remotePeer()))
                    .addKeyValue("address", String.valueOf(address)).log("static peer connected");
            connection.onClose().subscribe(null, null, () -> disconnected(connection));
        }

        private synchronized void disconnected(HostConnection connection) {
            if (stopped || closed) {
                return; // removed, or the host is shutting down: its connections close, nothing is dialled again
            }
            log.atInfo().addKeyValue("peer", String.valueOf(connection.remotePeer()))
                    .addKeyValue("address", String.valueOf(address))
                    .addKeyValue("reason", connection.closeReason()).log("static peer disconnected; dialling it again");
            later();
        }

        private void failed(Throwable e) {
            int inARow;
            synchronized (this) {
                dialling = false;
                inARow = ++failures;
            }
            firstDial.complete(null);
            log.atDebug().addKeyValue("address", String.valueOf(address)).addKeyValue("failures", inARow)
                    .addKeyValue("reason", String.valueOf(e)).log("dialling static peer failed");
            later();
        }

        private synchronized void later() {
            if (stopped || closed || dialling || timer != null) {
                return;
            }
            long base = Math.min(maxBackoff.toMillis(), minBackoff.toMillis() << Math.min(failures, 20));
            long delay = (long) (base * (0.8 + 0.4 * ThreadLocalRandom.current().nextDouble()));
            timer = Mono.delay(Duration.ofMillis(delay), Schedulers.parallel()).subscribe(x -> attempt());
        }

        synchronized void stop() {
            stopped = true;
            if (timer != null) {
                timer.dispose();
            }
            firstDial.complete(null);
        }
    }
}
