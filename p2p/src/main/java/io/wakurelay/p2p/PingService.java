package io.wakurelay.p2p;

import io.wakurelay.p2p.connection.Connection;
import io.wakurelay.p2p.connection.Stream;
import io.wakurelay.p2p.connection.StreamHandler;
import io.wakurelay.p2p.connection.ProtocolHandler;
import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.ScheduledFuture;
import io.wakurelay.p2p.echo.EchoProtocol;
import io.wakurelay.p2p.mss.NegotiationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * ping (libp2p/specs ping/ping.md): 32 bytes echoed on {@code /ipfs/ping/1.0.0}. This host answers every peer's
 * pings, on at most {@link #MAX_INBOUND_STREAMS} ping streams per connection at once (ping.md: the listener "SHOULD
 * accept at most two streams per peer"; js-libp2p's limit too): a third is reset and counted
 * ({@code libp2p_streams_refused_total{reason="too_many_ping_streams"}}), so that a peer cannot spend its whole
 * stream allowance on echoes. It pings each connection on a long-lived stream every
 * {@link HostConfig#pingInterval()}; an answer that does not come within {@link HostConfig#pingTimeout()} closes the
 * connection ({@code ping_timeout}). A peer that does not speak ping is not pinged.
 */
final class PingService {
    private static final Logger log = LoggerFactory.getLogger(PingService.class);
    static final String PROTOCOL = "/ipfs/ping/1.0.0";
    static final int SIZE = 32;
    static final int MAX_INBOUND_STREAMS = 2;
    static final String TOO_MANY_STREAMS = "too_many_ping_streams";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Duration interval;
    private final Duration timeout;
    private final HostMetrics metrics;
    /** Inbound ping streams open now, per connection that has any (a connection's streams share its event loop). */
    private final Map<Connection, Integer> inbound = new ConcurrentHashMap<>();

    PingService(Duration interval, Duration timeout, HostMetrics metrics) {
        this.interval = interval;
        this.timeout = timeout;
        this.metrics = metrics;
    }

    /**
     * Echoes what the peer sends, as {@link EchoProtocol} does (ping's server is an echo of 32-byte messages), on at
     * most {@link #MAX_INBOUND_STREAMS} streams per connection.
     */
    ProtocolHandler server() {
        return stream -> {
            Connection connection = stream.connection();
            if (inbound.merge(connection, 1, Integer::sum) > MAX_INBOUND_STREAMS) {
                closed(connection);
                metrics.streamRefused(TOO_MANY_STREAMS);
                stream.reset();
                return (s, data) -> data.release();
            }
            return EchoProtocol.echoing(() -> closed(connection));
        };
    }

    /** One of the connection's inbound ping streams ended; the connection's entry goes with its last one. */
    private void closed(Connection connection) {
        inbound.computeIfPresent(connection, (c, open) -> open == 1 ? null : open - 1);
    }

    /**
     * Pings {@code connection} until it closes. The next tick is cancelled when it closes: a pending tick holds the
     * connection (its channel, muxer and Noise state), and left to run out it kept every closed connection reachable
     * for up to a ping interval, so that connection churn held memory in proportion to its rate.
     */
    void start(HostConnection connection) {
        Pinger pinger = new Pinger(connection);
        pinger.schedule();
        connection.onClose().subscribe(null, e -> pinger.stopSoon(), pinger::stopSoon);
    }

    private final class Pinger implements StreamHandler {
        private final HostConnection connection;
        private Stream stream;
        private boolean opening;
        private boolean unsupported;
        private final byte[] sent = new byte[SIZE];
        private final byte[] received = new byte[SIZE];
        private int receivedBytes;
        private long sentAt;
        private ScheduledFuture<?> deadline;

        Pinger(HostConnection connection) {
            this.connection = connection;
        }

        private ScheduledFuture<?> next;

        void schedule() {
            next = connection.executor().schedule(this::tick, interval.toNanos(), TimeUnit.NANOSECONDS);
        }

        /** Cancels the next tick and the deadline, on the connection's event loop (where they are scheduled). */
        void stopSoon() {
            try {
                connection.executor().execute(this::stop);
            } catch (java.util.concurrent.RejectedExecutionException e) {
                stop(); // the event loop is shutting down: its scheduled tasks go with it
            }
        }

        private void stop() {
            if (next != null) {
                next.cancel(false);
                next = null;
            }
            if (deadline != null) {
                deadline.cancel(false);
                deadline = null;
            }
        }

        private void tick() {
            if (!connection.isOpen() || unsupported) {
                return;
            }
            schedule();
            if (deadline != null || opening) {
                return;
            }
            if (stream == null || !stream.isOpen()) {
                opening = true;
                connection.openStream(PROTOCOL, this).subscribe(s -> {
                    opening = false;
                    ping();
                }, this::openFailed);
            } else {
                ping();
            }
        }

        private void openFailed(Throwable e) {
            opening = false;
            if (e instanceof NegotiationException.NotSupported) {
                unsupported = true;
                log.atDebug().addKeyValue("peer", String.valueOf(connection.remotePeer()))
                        .log("the peer does not speak ping; not pinging it");
            }
        }

        @Override
        public void onOpen(Stream s) {
            stream = s;
        }

        private void ping() {
            if (stream == null || !stream.isOpen()) {
                return;
            }
            RANDOM.nextBytes(sent);
            receivedBytes = 0;
            sentAt = System.nanoTime();
            deadline = connection.executor().schedule(() -> {
                log.atDebug().addKeyValue("peer", String.valueOf(connection.remotePeer()))
                        .addKeyValue("timeout", String.valueOf(timeout)).log("the peer did not answer a ping in time; closing");
                connection.close("ping_timeout");
            }, timeout.toNanos(), TimeUnit.NANOSECONDS);
            stream.write(stream.alloc().buffer(SIZE).writeBytes(sent));
        }

        @Override
        public void onData(Stream s, ByteBuf data) {
            try {
                int n = Math.min(data.readableBytes(), SIZE - receivedBytes);
                data.readBytes(received, receivedBytes, n);
                receivedBytes += n;
                if (data.isReadable() || deadline == null) {
                    s.reset();
                    return;
                }
            } finally {
                data.release();
            }
            if (receivedBytes == SIZE) {
                deadline.cancel(false);
                deadline = null;
                if (Arrays.equals(sent, received)) {
                    metrics.pingRtt(Duration.ofNanos(System.nanoTime() - sentAt));
                } else {
                    connection.close("ping_mismatch");
                }
            }
        }

        @Override
        public void onClosed(Stream s, Throwable cause) {
            stream = null;
            if (deadline != null) {
                deadline.cancel(false);
                deadline = null;
            }
        }
    }
}
