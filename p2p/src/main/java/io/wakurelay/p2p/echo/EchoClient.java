package io.wakurelay.p2p.echo;

import io.netty.buffer.ByteBuf;
import io.wakurelay.p2p.connection.Connection;
import io.wakurelay.p2p.connection.Stream;
import io.wakurelay.p2p.connection.StreamHandler;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Random;

/**
 * Sends {@code total} bytes of a seeded pattern on an echo stream as fast as the stream takes them, reads the echo
 * back, and reports the SHA-256 of both sides.
 */
public final class EchoClient implements StreamHandler {
    /** The default write size: as large as one Noise frame's plaintext can nearly hold. */
    public static final int DEFAULT_CHUNK = 64 * 1024;
    private final long total;
    private final int chunkBytes;
    private final Random random;
    /** Null when not verifying: the benchmark measures the transport, not SHA-256. */
    private final MessageDigest sentDigest;
    private final MessageDigest receivedDigest;
    private ByteBuf pattern;
    private final Sinks.One<Result> result = Sinks.one();
    private long sent;
    private boolean finished;
    private long received;
    private long startNanos;

    /**
     * What came back: bytes, the SHA-256 of what was sent and of what came back (empty when not verified), and the
     * time from open to close.
     */
    public record Result(long bytes, String sentSha256, String receivedSha256, long nanos) {
    }

    private EchoClient(long total, int chunkBytes, long seed, boolean verify) {
        if (chunkBytes < 1) {
            throw new IllegalArgumentException("chunkBytes must be positive, was " + chunkBytes);
        }
        this.total = total;
        this.chunkBytes = chunkBytes;
        this.random = new Random(seed);
        this.sentDigest = verify ? sha256() : null;
        this.receivedDigest = verify ? sha256() : null;
    }

    /** Echoes {@code total} bytes of a seeded pattern over a new stream of {@code connection}, checking every byte. */
    public static Mono<Result> run(Connection connection, long total) {
        return run(connection, total, true);
    }

    /**
     * @param verify false to send one repeated random chunk and only count what comes back (for throughput
     *               measurements, where fresh random data and two SHA-256 would cost more than the transport)
     */
    public static Mono<Result> run(Connection connection, long total, boolean verify) {
        return run(connection, total, verify, DEFAULT_CHUNK);
    }

    /** As {@link #run(Connection, long, boolean)}, writing {@code chunkBytes} at a time (one muxer frame each). */
    public static Mono<Result> run(Connection connection, long total, boolean verify, int chunkBytes) {
        EchoClient client = new EchoClient(total, chunkBytes, 42, verify);
        return connection.openStream(EchoProtocol.ID, client).then(client.result.asMono());
    }

    @Override
    public void onOpen(Stream stream) {
        startNanos = System.nanoTime();
        pump(stream);
    }

    private void pump(Stream stream) {
        while (sent < total && stream.isWritable()) {
            int n = (int) Math.min(chunkBytes, total - sent);
            if (sentDigest == null) {
                if (pattern == null) {
                    byte[] chunk = new byte[chunkBytes];
                    random.nextBytes(chunk);
                    pattern = stream.alloc().directBuffer(chunkBytes).writeBytes(chunk);
                }
                stream.write(pattern.retainedSlice(0, n));
            } else {
                byte[] chunk = new byte[n];
                random.nextBytes(chunk);
                sentDigest.update(chunk);
                stream.write(stream.alloc().directBuffer(n).writeBytes(chunk));
            }
            sent += n;
        }
        if (sent == total && !finished) {
            finished = true;
            stream.closeWrite();
        }
    }

    @Override
    public void onWritabilityChanged(Stream stream) {
        if (stream.isWritable()) {
            pump(stream);
        }
    }

    @Override
    public void onData(Stream stream, ByteBuf data) {
        received += data.readableBytes();
        if (receivedDigest != null) {
            for (java.nio.ByteBuffer part : data.nioBuffers()) {
                receivedDigest.update(part);
            }
        }
        data.release();
    }

    @Override
    public void onClosed(Stream stream, Throwable cause) {
        if (pattern != null) {
            pattern.release();
            pattern = null;
        }
        if (cause != null) {
            result.tryEmitError(cause);
        } else {
            HexFormat hex = HexFormat.of();
            result.tryEmitValue(new Result(received, sentDigest == null ? "" : hex.formatHex(sentDigest.digest()),
                    receivedDigest == null ? "" : hex.formatHex(receivedDigest.digest()), System.nanoTime() - startNanos));
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
