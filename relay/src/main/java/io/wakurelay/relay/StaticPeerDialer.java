package io.wakurelay.relay;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.retry.Retry;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.function.Function;

/**
 * Keeps one static peer connected: dials it, and when the connection fails or ends, dials again after an
 * exponential backoff with jitter between the configured bounds (Reactor's {@link Retry#backoff}; the backoff
 * starts over once a connection has completed its handshake).
 *
 * <p>A peer that is already connected (it dialled us, recognised by the node id learnt on an earlier connection
 * or by the listen address in its Hello) is not dialled again: the dialer waits for that connection to end.
 */
final class StaticPeerDialer implements Disposable {
    private static final Logger log = LoggerFactory.getLogger(StaticPeerDialer.class);
    /** Backoff jitter: each wait is the exponential value plus or minus half of it, within the bounds. */
    static final double JITTER = 0.5;

    private final InetSocketAddress address;
    private final String addressText;
    private final Function<InetSocketAddress, Mono<PeerSession>> dial;
    private final PeerRegistry registry;
    private final Disposable loop;
    private volatile String knownNodeId;
    private volatile PeerSession current;

    StaticPeerDialer(InetSocketAddress address, Function<InetSocketAddress, Mono<PeerSession>> dial,
                     PeerRegistry registry, Duration minBackoff, Duration maxBackoff) {
        this.address = address;
        this.addressText = PeerSession.format(address);
        this.dial = dial;
        this.registry = registry;
        this.loop = Flux.defer(this::connectOnce)
                .retryWhen(Retry.backoff(Long.MAX_VALUE, minBackoff).maxBackoff(maxBackoff).jitter(JITTER)
                        .transientErrors(true)
                        .doBeforeRetry(signal -> log.debug("redialling {} after: {}", addressText, signal.failure().toString())))
                .subscribe(session -> { }, error -> log.error("dialler of {} stopped", addressText, error));
    }

    /** One connection's life: emits the session once connected, then fails when it ends (so a retry follows). */
    private Flux<PeerSession> connectOnce() {
        PeerSession existing = connectedPeer();
        Mono<PeerSession> session = existing != null ? Mono.just(existing)
                : dial.apply(address).doOnError(PeerSession.PeerClosedException.class, e -> learnt(e.nodeId()));
        return session.flatMapMany(s -> {
            knownNodeId = s.peerNodeId();
            current = s;
            return Flux.just(s).concatWith(s.ended().then(Mono.error(
                    new PeerSession.PeerClosedException("connection to " + addressText + " ended", s.peerNodeId()))));
        });
    }

    private PeerSession connectedPeer() {
        PeerSession byId = registry.byNodeId(knownNodeId);
        return byId != null ? byId : registry.byListenAddress(addressText);
    }

    /** Remembers the node id learnt from a connection that ended in its handshake (e.g. as a duplicate). */
    private void learnt(String nodeId) {
        if (nodeId != null) {
            knownNodeId = nodeId;
        }
    }

    /** The connected session to this peer, if any. */
    PeerSession session() {
        PeerSession session = current;
        if (session != null && session.isActive()) {
            return session;
        }
        return connectedPeer();
    }

    InetSocketAddress address() {
        return address;
    }

    @Override
    public void dispose() {
        loop.dispose();
    }

    @Override
    public boolean isDisposed() {
        return loop.isDisposed();
    }
}
