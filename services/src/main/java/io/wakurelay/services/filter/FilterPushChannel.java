package io.wakurelay.services.filter;

import io.netty.buffer.ByteBuf;
import io.wakurelay.p2p.connection.Connection;
import io.wakurelay.p2p.connection.Stream;
import io.wakurelay.p2p.connection.StreamHandler;
import io.wakurelay.p2p.mss.NegotiationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The pushes to one subscriber over one connection: a {@value FilterConfig#PUSH_PROTOCOL_ID} stream this node
 * opens when it first has something to push (and again after the subscriber closed one), carrying one
 * length-prefixed {@code MessagePush} per message, as js-waku and nwaku read them.
 *
 * <p>What a subscriber may have in flight (queued here or on the stream, not yet handed to its socket) is bounded
 * by messages and bytes; {@link #offer} drops past the bound and counts it, and after
 * {@code maxDropsBeforeRemoval} drops in a row reports the subscriber stuck. {@link #offer} may be called from any
 * thread and never blocks; the stream's state lives on the connection's event loop.
 */
final class FilterPushChannel {
    private static final Logger log = LoggerFactory.getLogger(FilterPushChannel.class);

    private record Pending(ByteBuf frame, int size) {
    }

    private final Connection connection;
    private final FilterConfig limits;
    private final FilterMetrics metrics;
    private final Consumer<FilterRemoval> remove;
    private final AtomicInteger queuedMessages = new AtomicInteger();
    private final AtomicLong queuedBytes = new AtomicLong();
    private final AtomicInteger consecutiveDrops = new AtomicInteger();
    private volatile boolean closed;
    // on the connection's event loop:
    private final ArrayDeque<Pending> pending = new ArrayDeque<>();
    private Stream stream;
    private boolean opening;

    /** @param remove ends the subscription (stuck, or push refused); called at most once per reason */
    FilterPushChannel(Connection connection, FilterConfig limits, FilterMetrics metrics, Consumer<FilterRemoval> remove) {
        this.connection = connection;
        this.limits = limits;
        this.metrics = metrics;
        this.remove = remove;
    }

    Connection connection() {
        return connection;
    }

    /**
     * Queues a push of {@code frame} (which stays the caller's: a retained duplicate is taken), or drops it when the
     * subscriber has too much in flight.
     *
     * @return false when dropped
     */
    boolean offer(ByteBuf frame) {
        if (closed) {
            return false;
        }
        int size = frame.readableBytes();
        // offers come one at a time (the relay's accepted messages are one stream); were they concurrent, the
        // bound could be passed by the few racing at once
        if (queuedMessages.get() >= limits.pushQueueMessages() || queuedBytes.get() + size > limits.pushQueueBytes()) {
            metrics.pushDrops.increment();
            if (consecutiveDrops.incrementAndGet() == limits.maxDropsBeforeRemoval()) {
                log.atInfo().addKeyValue("peer", String.valueOf(connection.remotePeer()))
                        .addKeyValue("drops", limits.maxDropsBeforeRemoval())
                        .log("filter subscriber took none of the last pushes; removing its subscription");
                remove.accept(FilterRemoval.STUCK);
            }
            return false;
        }
        consecutiveDrops.set(0);
        queuedMessages.incrementAndGet();
        queuedBytes.addAndGet(size);
        ByteBuf copy = frame.retainedDuplicate();
        try {
            connection.executor().execute(() -> send(copy, size));
        } catch (RejectedExecutionException e) {
            copy.release(); // the host is shut down
            taken(size, false);
        }
        return true;
    }

    /** Messages queued and not yet taken (tests, gauges). */
    int queuedMessages() {
        return queuedMessages.get();
    }

    private void send(ByteBuf frame, int size) {
        if (closed) {
            frame.release();
            taken(size, false);
            return;
        }
        if (stream != null) {
            write(frame, size);
            return;
        }
        pending.add(new Pending(frame, size));
        if (!opening) {
            open();
        }
    }

    private void open() {
        opening = true;
        connection.openStream(FilterConfig.PUSH_PROTOCOL_ID, new PushStreamHandler()).subscribe(s -> {
            opening = false;
            if (closed) {
                s.closeWrite();
                return;
            }
            stream = s;
            Pending p;
            while ((p = pending.poll()) != null) {
                write(p.frame(), p.size());
            }
        }, e -> {
            opening = false;
            failPending();
            if (e instanceof NegotiationException.NotSupported) {
                log.atInfo().addKeyValue("peer", String.valueOf(connection.remotePeer()))
                        .addKeyValue("protocol", String.valueOf(FilterConfig.PUSH_PROTOCOL_ID))
                        .log("filter subscriber does not accept pushes; removing its subscription");
                remove.accept(FilterRemoval.PUSH_REFUSED);
            } else {
                log.atDebug().addKeyValue("peer", String.valueOf(connection.remotePeer())).addKeyValue("reason", e.toString())
                        .log("cannot open a filter push stream");
            }
        });
    }

    private void write(ByteBuf frame, int size) {
        stream.write(frame).addListener(f -> taken(size, f.isSuccess()));
    }

    private void taken(int size, boolean pushed) {
        queuedMessages.decrementAndGet();
        queuedBytes.addAndGet(-size);
        if (pushed) {
            metrics.pushes.increment();
        } else {
            metrics.pushFailures.increment();
        }
    }

    private void failPending() {
        Pending p;
        while ((p = pending.poll()) != null) {
            p.frame().release();
            taken(p.size(), false);
        }
    }

    /**
     * Ends the pushes: what waits is released, the stream is closed (gracefully: what was written still goes out)
     * or reset. From any thread; idempotent.
     */
    void close(boolean graceful) {
        closed = true;
        try {
            connection.executor().execute(() -> {
                failPending();
                Stream s = stream;
                stream = null;
                if (s != null) {
                    if (graceful) {
                        s.closeWrite();
                    } else {
                        s.reset();
                    }
                }
            });
        } catch (RejectedExecutionException e) {
            // the host is shut down: its streams and what they queued are gone with it
        }
    }

    /** The push stream: the subscriber never writes on it; when it closes its side, this side closes too. */
    private final class PushStreamHandler implements StreamHandler {
        @Override
        public void onData(Stream s, ByteBuf data) {
            data.release();
        }

        @Override
        public void onRemoteClosed(Stream s) {
            s.closeWrite();
            if (stream == s) {
                stream = null; // the next push opens a new one
            }
        }

        @Override
        public void onClosed(Stream s, Throwable cause) {
            if (stream == s) {
                stream = null;
            }
        }
    }
}
