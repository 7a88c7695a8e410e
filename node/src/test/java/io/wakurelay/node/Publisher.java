package io.wakurelay.node;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.wakurelay.p2p.Host;
import io.wakurelay.p2p.HostConfig;
import io.wakurelay.p2p.connection.Stream;
import io.wakurelay.p2p.connection.StreamHandler;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.p2p.wire.Uvarint;
import io.wakurelay.protocol.MessageHasher;
import io.wakurelay.protocol.PathCounters;
import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.relay.Relay;
import io.wakurelay.relay.proto.Message;
import io.wakurelay.relay.proto.RPC;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A relay peer that publishes distinct messages to a node as fast as the node takes them: it writes RPCs on its relay
 * stream to the node while the stream is writable and waits while it is not, so when the node stops reading (its
 * yamux credit runs out and the stream's queue fills) the publisher stops too, as a blocking socket would. It
 * remembers the hash of every message it wrote. Payload sizes are drawn (seeded) between {@code minBytes} and
 * {@code maxBytes}.
 */
final class Publisher implements AutoCloseable {
    static final String TOPIC = "/waku/2/rs/0/0";
    static final String CONTENT = "/app/1/load/proto";

    private final Host host;
    private final Stream stream;
    private final List<String> sent = new CopyOnWriteArrayList<>();
    private final List<String> attempted = new CopyOnWriteArrayList<>();
    private final AtomicLong payloadBytes = new AtomicLong();
    private final AtomicLong blockedNanos = new AtomicLong();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Object writable = new Object();
    private volatile Throwable streamFailure;
    private volatile IOException failure;
    private final Thread thread;

    /** @param count messages to send; {@code Integer.MAX_VALUE} for until closed or the connection breaks */
    Publisher(Multiaddr node, String name, int count, int minBytes, int maxBytes, long seed) {
        host = Host.start(HostConfig.builder().listenAddress(null).build(), PrivateKey.generateEd25519(), new SimpleMeterRegistry());
        stream = host.dial(node).flatMap(c -> c.openStream(Relay.PROTOCOL_ID, new StreamHandler() {
            @Override
            public void onData(Stream s, ByteBuf data) {
                data.release();
            }

            @Override
            public void onWritabilityChanged(Stream s) {
                synchronized (writable) {
                    writable.notifyAll();
                }
            }

            @Override
            public void onClosed(Stream s, Throwable cause) {
                streamFailure = cause != null ? cause : new IOException("the node closed the relay stream");
                onWritabilityChanged(s);
            }
        })).block(Duration.ofSeconds(15));
        Random random = new Random(seed);
        byte[] noise = new byte[maxBytes + 4096];
        random.nextBytes(noise);
        MessageHasher hasher = new MessageHasher(new PathCounters());
        thread = new Thread(() -> {
            try {
                for (int i = 0; i < count && running.get(); i++) {
                    int size = minBytes + random.nextInt(maxBytes - minBytes + 1);
                    ByteBuffer slice = ByteBuffer.wrap(noise, random.nextInt(4096), size);
                    WakuMessage m = WakuMessage.newBuilder()
                            .setPayload(UnsafeByteOperations.unsafeWrap(slice))
                            .setContentTopic(CONTENT)
                            .setMeta(ByteString.copyFromUtf8(name + "#" + i)) // distinct hashes even if slices repeat
                            .setTimestamp(WakuNode.nowNanos())
                            .build();
                    String hash = hasher.hash(TOPIC, m).toHex();
                    attempted.add(hash);
                    long t0 = System.nanoTime();
                    write(m);
                    blockedNanos.addAndGet(System.nanoTime() - t0);
                    sent.add(hash);
                    payloadBytes.addAndGet(size);
                }
            } catch (IOException e) {
                failure = e;
            }
        }, "publisher-" + name);
        thread.setDaemon(true);
        thread.start();
    }

    Publisher(InetSocketAddress node, String peerId, String name, int count, int minBytes, int maxBytes, long seed) {
        this(Multiaddr.of(node).withPeerId(io.wakurelay.p2p.crypto.PeerId.parse(peerId)), name, count, minBytes, maxBytes, seed);
    }

    /** Waits until the stream takes more (the node's credit and the stream's queue allow it), then writes one RPC. */
    private void write(WakuMessage m) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        synchronized (writable) {
            while (!stream.isWritable() && streamFailure == null) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new IOException("the node took nothing for 60 s");
                }
                try {
                    writable.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted");
                }
            }
        }
        if (streamFailure != null) {
            throw new IOException("the relay stream to the node failed: " + streamFailure, streamFailure);
        }
        byte[] rpc = RPC.newBuilder().addPublish(Message.newBuilder().setTopic(TOPIC).setData(m.toByteString())).build().toByteArray();
        ByteBuf out = stream.alloc().directBuffer(Uvarint.MAX_BYTES + rpc.length);
        Uvarint.write(out, rpc.length);
        out.writeBytes(rpc);
        stream.write(out);
    }

    /** Hashes of the messages written completely, in order. */
    List<String> sent() {
        return sent;
    }

    /** Hashes of every message the publisher started to write, the one cut short by a failure included. */
    List<String> attempted() {
        return attempted;
    }

    long payloadBytes() {
        return payloadBytes.get();
    }

    /** Time spent waiting for the node to take the bytes. */
    long blockedNanos() {
        return blockedNanos.get();
    }

    IOException failure() {
        return failure;
    }

    /** Waits until every message was written (or the connection broke). */
    boolean join(long millis) throws InterruptedException {
        thread.join(millis);
        return !thread.isAlive();
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        thread.join(10_000);
        host.shutdown(Duration.ofSeconds(1)).block(Duration.ofSeconds(10));
    }
}
