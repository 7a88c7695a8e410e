package io.wakurelay.node;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import io.wakurelay.protocol.MessageHasher;
import io.wakurelay.protocol.PathCounters;
import io.wakurelay.protocol.proto.WakuMessage;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A peer that publishes distinct messages on a node's peer port as fast as TCP lets it (blocking writes: when the
 * node stops reading, the publisher stops too), remembering the hash of every message it wrote completely.
 * Payload sizes are drawn (seeded) between {@code minBytes} and {@code maxBytes}.
 */
final class Publisher implements AutoCloseable {
    static final String CONTENT = "/app/1/load/proto";

    private final PeerSocket socket;
    private final List<String> sent = new CopyOnWriteArrayList<>();
    private final List<String> attempted = new CopyOnWriteArrayList<>();
    private final AtomicLong payloadBytes = new AtomicLong();
    private final AtomicLong blockedNanos = new AtomicLong();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private volatile IOException failure;
    private final Thread thread;

    /** @param count messages to send; {@code Integer.MAX_VALUE} for until closed or the connection breaks */
    Publisher(InetSocketAddress node, String nodeId, int count, int minBytes, int maxBytes, long seed) throws IOException {
        socket = PeerSocket.connect(node);
        socket.handshake(nodeId);
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
                            .setMeta(ByteString.copyFromUtf8(nodeId + "#" + i)) // distinct hashes even if slices repeat
                            .setTimestamp(WakuNode.nowNanos())
                            .build();
                    String hash = hasher.hash(PeerSocket.TOPIC, m).toHex();
                    attempted.add(hash);
                    long t0 = System.nanoTime();
                    socket.send(PeerSocket.publish(m));
                    blockedNanos.addAndGet(System.nanoTime() - t0);
                    sent.add(hash);
                    payloadBytes.addAndGet(size);
                }
            } catch (IOException e) {
                failure = e;
            }
        }, "publisher-" + nodeId);
        thread.setDaemon(true);
        thread.start();
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

    /** Time spent inside socket writes (waiting for the node to take the bytes). */
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
        socket.close();
        thread.join(10_000);
    }
}
