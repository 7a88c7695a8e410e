package io.wakurelay.relay;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.socket.DuplexChannel;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.ScheduledFuture;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.FrameCodec;
import io.wakurelay.protocol.FrameDecoder;
import io.wakurelay.protocol.InboundFrame;
import io.wakurelay.protocol.ProtocolViolation;
import io.wakurelay.protocol.Violation;
import io.wakurelay.protocol.proto.Frame;
import io.wakurelay.protocol.proto.Goodbye;
import io.wakurelay.protocol.proto.Hello;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.publisher.SynchronousSink;
import reactor.netty.Connection;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One peer connection, inbound or outbound: the Hello handshake, the peer's subscriptions, its inbound frames
 * (read through Reactor Netty's receive flux, so that reading stops when the local consumer stops requesting),
 * its bounded outbound queue, liveness, and the Goodbye that ends it.
 *
 * <p>Inbound frames are handled on the channel's event loop, one at a time; the fields only that path writes
 * need no synchronisation. Fan-out ({@link #relay}) and {@link #disconnect} may come from any thread.
 */
final class PeerSession implements MessageSource {
    private static final Logger log = LoggerFactory.getLogger(PeerSession.class);
    /** Most topics one peer may subscribe to; its Hello and Subscribe frames are refused past this. */
    static final int MAX_PEER_TOPICS = 1024;
    /** Longest listen address a peer may announce. */
    static final int MAX_LISTEN_ADDRESS_LENGTH = 300;
    /** After a Goodbye, how long the peer has to close its end before this node closes the socket anyway. */
    static final Duration GOODBYE_LINGER = Duration.ofSeconds(1);

    private final SessionContext context;
    private final Connection connection;
    private final Channel channel;
    private final Direction direction;
    private final OutboundQueue queue;
    private final PeerRateLimiter limiter;
    private final AtomicBoolean closing = new AtomicBoolean();
    private final Sinks.One<PeerSession> established = Sinks.one();
    private final Sinks.Empty<Void> ended = Sinks.empty();
    private volatile boolean active;
    private volatile String peerNodeId;
    private volatile String peerListenAddress = "";
    private volatile Set<String> peerTopics = Set.of();
    private volatile Instant connectedSince;
    private volatile String endReason;
    // event loop only
    private int invalidMessages;
    private boolean pingOutstanding;
    private boolean framingBroken;
    private ScheduledFuture<?> handshakeTimer;

    PeerSession(SessionContext context, Connection connection, Direction direction) {
        this.context = context;
        this.connection = connection;
        this.channel = connection.channel();
        this.direction = direction;
        RelayConfig config = context.config();
        this.queue = new OutboundQueue(config.peerQueueMessages(), config.peerQueueBytes(), config.maxDropsBeforeDisconnect());
        this.limiter = new PeerRateLimiter(config.rateLimits(), System::nanoTime);
    }

    /**
     * Installs the pipeline, sends Hello and starts reading. Called on the event loop when the connection is
     * configured, before anything is read (Reactor Netty keeps auto-read off until the receive flux requests).
     */
    void start() {
        connection.onDispose(this::onClosed);
        if (closing.get()) {
            return; // closed before it started: onClosed has already cleaned up
        }
        RelayConfig config = context.config();
        long idleMillis = Math.max(1, config.idleTimeout().toMillis() / 2);
        connection.addHandlerLast("wakurelay.bytes", context.byteCounter())
                .addHandlerLast("wakurelay.idle", new IdleStateHandler(idleMillis, 0, 0, TimeUnit.MILLISECONDS))
                .addHandlerLast("wakurelay.frames", new FrameDecoder(config.limits().maxFrameSize()))
                .addHandlerLast("wakurelay.events", new PeerEventHandler(this));
        handshakeTimer = channel.eventLoop().schedule(this::handshakeTimedOut,
                config.handshakeTimeout().toNanos(), TimeUnit.NANOSECONDS);
        context.subscriptions().whileUnchanged(topics -> {
            sendControl(ControlFrames.hello(config.nodeId(), context.listenAddress().get(), topics), FrameKind.HELLO);
            context.registry().track(this);
            return null;
        });
        if (!context.delivery().add(inbound())) {
            disconnect(Goodbye.Reason.SHUTDOWN, "the node is shutting down");
        }
    }

    private Flux<Envelope> inbound() {
        @SuppressWarnings("unchecked") // a Flux only emits: one of ? is a Flux of Object
        Flux<Object> frames = (Flux<Object>) connection.inbound().receiveObject();
        if (limiter.limitsPublish()) {
            frames = frames.transform(PublishPacer.pacing(limiter, channel.eventLoop(), context.metrics()::rateLimited));
        }
        return frames
                .<Envelope>handle(this::onMessage)
                .onErrorResume(e -> {
                    log.debug("peer {} inbound failed: {}", this, e.toString());
                    channel.close();
                    return Mono.empty();
                });
    }

    /** One frame from the decoder. Reactor Netty releases it when this returns; an envelope keeps its own reference. */
    private void onMessage(Object message, SynchronousSink<Envelope> sink) {
        if (!(message instanceof ByteBuf frame) || closing.get()) {
            return;
        }
        pingOutstanding = false;
        InboundFrame parsed;
        try {
            parsed = FrameCodec.parse(frame);
        } catch (ProtocolViolation e) {
            if (e.violation().breaksFraming()) {
                onFramingViolation(e);
            } else {
                context.metrics().invalid(e.violation().label());
                if (active) {
                    refused(e.violation().label());
                } else {
                    reject(Goodbye.Reason.PROTOCOL_VIOLATION, e.getMessage());
                }
            }
            return;
        }
        if (parsed instanceof InboundFrame.Publish publish) {
            context.metrics().frameReceived(FrameKind.PUBLISH);
            limiter.publishRead(frame.readableBytes());
            if (!active) {
                reject(Goodbye.Reason.PROTOCOL_VIOLATION, "the first frame must be a Hello, was a Publish");
                return;
            }
            Envelope envelope = context.receivePath().receive(frame, publish, this);
            if (envelope != null) {
                sink.next(envelope);
            }
        } else if (parsed instanceof InboundFrame.Control control) {
            onControl(control.frame());
        }
    }

    private void onControl(Frame frame) {
        FrameKind kind = FrameKind.of(frame);
        context.metrics().frameReceived(kind);
        if (kind == FrameKind.GOODBYE) {
            onGoodbye(frame.getGoodbye());
            return;
        }
        if (!active) {
            if (kind == FrameKind.HELLO) {
                onHello(frame.getHello());
            } else {
                reject(Goodbye.Reason.PROTOCOL_VIOLATION, "the first frame must be a Hello, was a " + kind.label());
            }
            return;
        }
        if (kind != FrameKind.HELLO && !limiter.controlFrameAllowed()) {
            context.metrics().rateLimited(PeerRateLimiter.CONTROL);
            disconnect(Goodbye.Reason.RATE_LIMITED, "more than " + context.config().rateLimits().controlFramesPerSecond()
                    + " control frames per second");
            return;
        }
        switch (kind) {
            case HELLO -> violation("a second Hello");
            case SUBSCRIBE -> changeTopics(frame.getSubscribe().getPubsubTopicsList(), true);
            case UNSUBSCRIBE -> changeTopics(frame.getUnsubscribe().getPubsubTopicsList(), false);
            case PING -> sendDroppable(ControlFrames.pong(frame.getPing().getNonce()), FrameKind.PONG);
            case PONG -> { }
            default -> throw new IllegalStateException("unexpected control frame " + kind);
        }
    }

    private void onHello(Hello hello) {
        handshakeTimer.cancel(false);
        if (hello.getProtocolVersion() != ControlFrames.PROTOCOL_VERSION) {
            reject(Goodbye.Reason.PROTOCOL_VERSION_MISMATCH, "this node speaks protocol version "
                    + ControlFrames.PROTOCOL_VERSION + ", the peer announced " + hello.getProtocolVersion());
            return;
        }
        String nodeId = hello.getNodeId();
        if (nodeId.isBlank() || nodeId.length() > RelayConfig.MAX_NODE_ID_LENGTH) {
            reject(Goodbye.Reason.PROTOCOL_VIOLATION, "node id must be 1 to " + RelayConfig.MAX_NODE_ID_LENGTH + " characters");
            return;
        }
        if (nodeId.equals(context.config().nodeId())) {
            reject(Goodbye.Reason.DUPLICATE_CONNECTION, "connected to itself");
            return;
        }
        if (hello.getListenAddress().length() > MAX_LISTEN_ADDRESS_LENGTH) {
            reject(Goodbye.Reason.PROTOCOL_VIOLATION, "listen address longer than " + MAX_LISTEN_ADDRESS_LENGTH);
            return;
        }
        String invalid = invalidTopics(hello.getPubsubTopicsList(), hello.getPubsubTopicsCount());
        if (invalid != null) {
            reject(Goodbye.Reason.PROTOCOL_VIOLATION, invalid);
            return;
        }
        peerNodeId = nodeId;
        peerListenAddress = hello.getListenAddress();
        peerTopics = Set.copyOf(hello.getPubsubTopicsList());
        connectedSince = Instant.now();
        active = true;
        PeerSession duplicate = context.registry().register(this);
        if (duplicate == this) {
            active = false;
            reject(Goodbye.Reason.DUPLICATE_CONNECTION, "already connected to " + nodeId);
            return;
        }
        if (duplicate != null) {
            duplicate.disconnect(Goodbye.Reason.DUPLICATE_CONNECTION, "replaced by another connection to the same node");
        }
        log.info("peer connected: {} {} {} topics={}", direction.label(), nodeId, remoteAddress(), peerTopics);
        established.tryEmitValue(this);
    }

    private void changeTopics(List<String> topics, boolean subscribe) {
        Set<String> next = new LinkedHashSet<>(peerTopics);
        if (subscribe) {
            next.addAll(topics);
        } else {
            topics.forEach(next::remove);
        }
        String invalid = invalidTopics(topics, next.size());
        if (invalid != null) {
            violation(invalid);
            return;
        }
        peerTopics = Set.copyOf(next);
    }

    /** Why a peer's topic list is refused, or null when it is fine. */
    private String invalidTopics(Collection<String> topics, int resultingCount) {
        if (resultingCount > MAX_PEER_TOPICS) {
            return "more than " + MAX_PEER_TOPICS + " topics";
        }
        try {
            RelayConfig.checkTopics(topics, context.config().limits());
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    private void onGoodbye(Goodbye goodbye) {
        if (closing.compareAndSet(false, true)) {
            endReason = RelayMetrics.label(goodbye.getReason());
            if (active) {
                log.info("peer {} said goodbye: {} {}", this, goodbye.getReason(), goodbye.getDetail());
            } else {
                log.debug("connection {} refused by the peer: {} {}", this, goodbye.getReason(), goodbye.getDetail());
            }
            channel.close();
        }
    }

    /** A violation that makes the byte stream untrustworthy: the connection is closed with a Goodbye. */
    void onFramingViolation(ProtocolViolation violation) {
        if (framingBroken) {
            return; // whatever follows the first violation is noise: counted once
        }
        framingBroken = true;
        context.metrics().invalid(violation.violation().label());
        if (!channel.isActive()) {
            return; // a frame cut short by the peer closing: nothing left to say
        }
        Goodbye.Reason reason = violation.violation() == Violation.FRAME_TOO_LARGE
                ? Goodbye.Reason.FRAME_TOO_LARGE : Goodbye.Reason.PROTOCOL_VIOLATION;
        if (active) {
            disconnect(reason, violation.getMessage());
        } else {
            reject(reason, violation.getMessage());
        }
    }

    /** A bad message: the stream is fine, the peer is allowed {@code maxInvalidMessagesPerPeer} of them. */
    @Override
    public void refused(String reason) {
        int allowed = context.config().maxInvalidMessagesPerPeer();
        if (++invalidMessages > allowed) {
            disconnect(Goodbye.Reason.PROTOCOL_VIOLATION, "more than " + allowed + " invalid messages, the last " + reason);
        }
    }

    @Override
    public PeerSession peer() {
        return this;
    }

    private void violation(String detail) {
        disconnect(Goodbye.Reason.PROTOCOL_VIOLATION, detail);
    }

    private void handshakeTimedOut() {
        if (!active && !closing.get()) {
            reject(Goodbye.Reason.HANDSHAKE_TIMEOUT, "no Hello within " + context.config().handshakeTimeout());
        }
    }

    /** The reader has been idle for half the idle timeout: ask with a Ping, and give up the next time. */
    void onReaderIdle() {
        if (!active || closing.get() || !channel.config().isAutoRead()) {
            // before the handshake its own timer rules; with auto-read off it is this node that is not reading
            return;
        }
        if (pingOutstanding) {
            disconnect(Goodbye.Reason.IDLE_TIMEOUT, "nothing received for " + context.config().idleTimeout());
        } else {
            pingOutstanding = true;
            sendDroppable(ControlFrames.ping(ThreadLocalRandom.current().nextLong()), FrameKind.PING);
        }
    }

    boolean wants(String topic) {
        return peerTopics.contains(topic);
    }

    /** Queues the envelope's original frame bytes for this peer, or drops it when the peer's queue is full. */
    void relay(Envelope envelope) {
        if (closing.get()) {
            return;
        }
        int size = envelope.frameSize();
        switch (queue.offer(size)) {
            case QUEUED -> write(envelope.retainedFrame(), FrameKind.PUBLISH, size, true);
            case DROPPED -> context.registry().countDrop(peerNodeId);
            case DROPPED_SLOW_CONSUMER -> {
                context.registry().countDrop(peerNodeId);
                disconnect(Goodbye.Reason.SLOW_CONSUMER, "outbound queue full for more than "
                        + context.config().maxDropsBeforeDisconnect() + " messages in a row");
            }
        }
    }

    /** Announces a change of this node's subscriptions. */
    void announce(Frame subscribeOrUnsubscribe) {
        if (!closing.get()) {
            sendControl(subscribeOrUnsubscribe, FrameKind.of(subscribeOrUnsubscribe));
        }
    }

    private void sendControl(Frame frame, FrameKind kind) {
        ByteBuf buf = FrameCodec.encode(frame, channel.alloc());
        int size = buf.readableBytes();
        queue.force(size);
        write(buf, kind, size, false);
    }

    /** Liveness frames give way to a full queue: a peer that does not read gets no answers piling up. */
    private void sendDroppable(Frame frame, FrameKind kind) {
        int size = frame.getSerializedSize() + 5;
        if (queue.messages() < context.config().peerQueueMessages() && queue.bytes() + size <= context.config().peerQueueBytes()) {
            sendControl(frame, kind);
        }
    }

    private ChannelFuture write(ByteBuf frame, FrameKind kind, int size, boolean relayed) {
        return channel.writeAndFlush(frame).addListener(future -> {
            queue.written(size);
            if (future.isSuccess()) {
                context.metrics().frameSent(kind, size);
                if (relayed) {
                    context.metrics().relayed.increment();
                }
            }
        });
    }

    /** Refuses a connection that has not completed its handshake; counted as a rejected connection. */
    private void reject(Goodbye.Reason reason, String detail) {
        if (!closing.get()) {
            context.metrics().rejected(reason);
        }
        disconnect(reason, detail);
    }

    /**
     * Says Goodbye and closes: the Goodbye is written, the output shut down (so the peer reads it rather than a
     * reset), and the socket closed when the peer closes its end or after {@link #GOODBYE_LINGER}. Safe from any
     * thread; only the first call counts.
     */
    void disconnect(Goodbye.Reason reason, String detail) {
        if (!closing.compareAndSet(false, true)) {
            return;
        }
        endReason = RelayMetrics.label(reason);
        if (active) {
            log.info("disconnecting peer {}: {} {}", this, reason, detail);
        } else {
            // refusals can come by the thousand from a hostile source: not worth a line each
            log.debug("refusing connection {}: {} {}", this, reason, detail);
        }
        ByteBuf goodbye = FrameCodec.encode(ControlFrames.goodbye(reason, detail), channel.alloc());
        int size = goodbye.readableBytes();
        queue.force(size);
        write(goodbye, FrameKind.GOODBYE, size, false).addListener(future -> {
            if (future.isSuccess() && channel instanceof DuplexChannel duplex) {
                duplex.shutdownOutput();
            } else {
                channel.close();
            }
        });
        channel.eventLoop().schedule(() -> {
            channel.close();
        }, GOODBYE_LINGER.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Closes at once, without a Goodbye (shutdown past its grace period). */
    void closeNow() {
        closing.set(true);
        channel.close();
    }

    private void onClosed() {
        closing.set(true);
        context.registry().closedSlot();
        if (handshakeTimer != null) {
            handshakeTimer.cancel(false);
        }
        if (active) {
            // counted before the peer leaves the registry, so that whoever sees it gone sees it counted
            context.metrics().disconnected(endReason != null ? endReason : RelayMetrics.CLOSED);
            log.info("peer disconnected: {} ({})", this, endReason != null ? endReason : RelayMetrics.CLOSED);
        }
        context.registry().untrack(this);
        context.registry().unregister(this);
        established.tryEmitError(new PeerClosedException("connection to " + remoteAddress() + " closed"
                + (endReason != null ? " (" + endReason + ")" : "") + " before the handshake completed", peerNodeId));
        ended.tryEmitEmpty();
    }

    /** Emits this session when the handshake completes; fails if the connection ends before. */
    Mono<PeerSession> established() {
        return established.asMono();
    }

    /** Completes when the connection has closed and the session has left the registry. */
    Mono<Void> ended() {
        return ended.asMono();
    }

    String peerNodeId() {
        return peerNodeId;
    }

    String peerListenAddress() {
        return peerListenAddress;
    }

    Direction direction() {
        return direction;
    }

    OutboundQueue queue() {
        return queue;
    }

    boolean isActive() {
        return active && !closing.get();
    }

    Channel channel() {
        return channel;
    }

    String remoteAddress() {
        return format(channel.remoteAddress());
    }

    PeerInfo info() {
        return new PeerInfo(peerNodeId, remoteAddress(), peerListenAddress, direction.label(), peerTopics,
                queue.messages(), queue.bytes(), queue.drops(), connectedSince);
    }

    static String format(SocketAddress address) {
        if (address instanceof InetSocketAddress inet) {
            String host = inet.getHostString();
            return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + inet.getPort();
        }
        return String.valueOf(address);
    }

    @Override
    public String toString() {
        return (peerNodeId != null ? peerNodeId + "@" : "") + remoteAddress() + "/" + direction.label();
    }

    /** The handshake did not complete because the connection ended. */
    static final class PeerClosedException extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final String nodeId;

        PeerClosedException(String message, String nodeId) {
            super(message, null, false, false);
            this.nodeId = nodeId;
        }

        /** The node id the peer announced before the connection ended, or null if it never said. */
        String nodeId() {
            return nodeId;
        }
    }
}
