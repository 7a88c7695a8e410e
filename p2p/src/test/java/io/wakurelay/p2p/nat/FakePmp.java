package io.wakurelay.p2p.nat;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A NAT-PMP gateway (RFC 6886) in this JVM, on 127.0.0.1: external address, mappings and deletions, kept as a
 * gateway keeps them. It can stay silent, answer with a result code, move the external port, or send junk first.
 */
final class FakePmp implements AutoCloseable {
    final Map<String, Integer> mappings = new ConcurrentHashMap<>(); // "TCP 60000" (internal) -> external port
    final AtomicInteger requests = new AtomicInteger();
    volatile boolean silent;
    volatile int result;
    volatile int portOffset;
    volatile int junkBefore;
    volatile byte[] externalIp = {100, (byte) 128, 0, 1};

    private final DatagramSocket socket;
    private final Thread thread;

    FakePmp() throws IOException {
        socket = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        thread = new Thread(this::serve, "fake-pmp");
        thread.setDaemon(true);
        thread.start();
    }

    InetSocketAddress address() {
        return (InetSocketAddress) socket.getLocalSocketAddress();
    }

    private void serve() {
        byte[] buffer = new byte[64];
        while (!socket.isClosed()) {
            try {
                DatagramPacket p = new DatagramPacket(buffer, buffer.length);
                socket.receive(p);
                requests.incrementAndGet();
                if (silent) {
                    continue;
                }
                for (int i = 0; i < junkBefore; i++) {
                    byte[] junk = {0, (byte) 129, 0, 0};
                    socket.send(new DatagramPacket(junk, junk.length, p.getSocketAddress()));
                }
                ByteBuffer in = ByteBuffer.wrap(p.getData(), 0, p.getLength());
                int op = in.get(1);
                ByteBuffer out;
                if (op == 0) {
                    out = ByteBuffer.allocate(12).put((byte) 0).put((byte) 128).putShort((short) result).putInt(1)
                            .put(externalIp);
                } else {
                    int internal = Short.toUnsignedInt(in.getShort(4));
                    int suggested = Short.toUnsignedInt(in.getShort(6));
                    int lifetime = in.getInt(8);
                    String key = (op == 2 ? "TCP " : "UDP ") + internal;
                    int external = 0;
                    if (result == 0 && lifetime == 0) {
                        mappings.remove(key);
                    } else if (result == 0) {
                        external = suggested + portOffset;
                        mappings.put(key, external);
                    }
                    out = ByteBuffer.allocate(16).put((byte) 0).put((byte) (128 + op)).putShort((short) result)
                            .putInt(1).putShort((short) internal).putShort((short) external).putInt(lifetime);
                }
                socket.send(new DatagramPacket(out.array(), out.capacity(), p.getSocketAddress()));
            } catch (IOException e) {
                return;
            }
        }
    }

    @Override
    public void close() {
        socket.close();
        try {
            thread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
