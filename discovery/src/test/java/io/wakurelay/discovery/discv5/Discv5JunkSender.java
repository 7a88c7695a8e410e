package io.wakurelay.discovery.discv5;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The attacker of issue 43's N3: discv5 packets that a node cannot read, each from a new random node id, so that each
 * asks for a WHOAREYOU challenge; sent round-robin from {@code ports} UDP sockets of one address at {@code perSecond}
 * packets a second, until closed. The packets are well-formed (masked for the target's node id), so they pass every
 * check before the handshake. Seeded: the same seed sends the same ids and bytes. Its sockets are never read (the
 * answers are lost in their receive buffers). Public, for a node-level attacker (the hostile-peer fuzzer).
 */
public final class Discv5JunkSender implements AutoCloseable {
    private final List<DatagramChannel> sockets = new ArrayList<>();
    private final InetSocketAddress target;
    private final byte[] targetId;
    private final int perSecond;
    private final Random random;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicLong sent = new AtomicLong();
    private final Thread thread;

    /**
     * @param from      the address to send from (127.0.0.x: one address, many ports)
     * @param ports     the sockets to send from, in turn
     * @param target    the node's UDP endpoint
     * @param targetId  the node's id (the masking key of the header)
     * @param perSecond the packets sent a second, all sockets together
     */
    public Discv5JunkSender(InetAddress from, int ports, InetSocketAddress target, byte[] targetId, int perSecond,
            long seed) {
        this.target = target;
        this.targetId = targetId.clone();
        this.perSecond = perSecond;
        this.random = new Random(seed);
        try {
            for (int i = 0; i < ports; i++) {
                DatagramChannel socket = DatagramChannel.open(StandardProtocolFamily.INET);
                socket.bind(new InetSocketAddress(from, 0));
                sockets.add(socket);
            }
        } catch (IOException e) {
            close();
            throw new UncheckedIOException("cannot open the junk sender's sockets", e);
        }
        this.thread = new Thread(this::run, "discv5-junk-sender");
        thread.setDaemon(true);
        thread.start();
    }

    /** Packets sent so far. */
    public long sent() {
        return sent.get();
    }

    private void run() {
        long start = System.nanoTime();
        long interval = 1_000_000_000L / perSecond;
        int next = 0;
        while (running.get()) {
            long due = start + sent.get() * interval;
            long wait = due - System.nanoTime();
            if (wait > 1_000_000) {
                sleep(wait / 1_000_000);
                continue;
            }
            try {
                sockets.get(next).send(ByteBuffer.wrap(packet()), target);
            } catch (IOException e) {
                if (!running.get()) {
                    return;
                }
            }
            next = (next + 1) % sockets.size();
            sent.incrementAndGet();
        }
    }

    /** An ordinary packet of a random node with 20 random bytes as its message: unreadable, so challenged. */
    private byte[] packet() {
        byte[] iv = new byte[16];
        byte[] nonce = new byte[12];
        byte[] sourceId = new byte[32];
        byte[] message = new byte[Discv5Service.RANDOM_MESSAGE_LENGTH];
        random.nextBytes(iv);
        random.nextBytes(nonce);
        random.nextBytes(sourceId);
        random.nextBytes(message);
        return new Packet(iv, Packet.FLAG_ORDINARY, nonce, sourceId, message).encode(targetId);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        running.set(false);
        if (thread != null) {
            try {
                thread.join(2_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        for (DatagramChannel socket : sockets) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing
            }
        }
    }
}
