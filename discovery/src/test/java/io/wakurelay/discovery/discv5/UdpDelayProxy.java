package io.wakurelay.discovery.discv5;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A slow path on loopback, without root or {@code tc netem} (which would slow every other test on the machine): one
 * UDP socket that holds each datagram {@code delayMillis} before passing it on, from its one client to the target and
 * back. A discv5 node talking to the proxy's address talks to the target over a path of twice that round trip; the
 * target sees the proxy's address as the sender.
 */
final class UdpDelayProxy implements AutoCloseable {
    private final DatagramChannel socket;
    private final InetSocketAddress target;
    private final long delayMillis;
    private final ScheduledExecutorService delays = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "udp-delay-proxy-out");
        t.setDaemon(true);
        return t;
    });
    private final Thread reader;
    private volatile SocketAddress client;
    private volatile boolean running = true;

    UdpDelayProxy(InetAddress bind, InetSocketAddress target, long delayMillis) {
        this.target = target;
        this.delayMillis = delayMillis;
        try {
            socket = DatagramChannel.open(StandardProtocolFamily.INET);
            socket.bind(new InetSocketAddress(bind, 0));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        reader = new Thread(this::read, "udp-delay-proxy-in");
        reader.setDaemon(true);
        reader.start();
    }

    InetSocketAddress address() {
        try {
            return (InetSocketAddress) socket.getLocalAddress();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void read() {
        ByteBuffer buffer = ByteBuffer.allocate(2048);
        while (running) {
            try {
                buffer.clear();
                SocketAddress from = socket.receive(buffer);
                buffer.flip();
                ByteBuffer copy = ByteBuffer.allocate(buffer.remaining()).put(buffer).flip();
                SocketAddress to;
                if (from.equals(target)) {
                    to = client;
                } else {
                    client = from;
                    to = target;
                }
                if (to != null) {
                    delays.schedule(() -> send(copy, to), delayMillis, TimeUnit.MILLISECONDS);
                }
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void send(ByteBuffer datagram, SocketAddress to) {
        try {
            socket.send(datagram, to);
        } catch (IOException e) {
            // closed meanwhile
        }
    }

    @Override
    public void close() {
        running = false;
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing
        }
        delays.shutdownNow();
        try {
            reader.join(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
