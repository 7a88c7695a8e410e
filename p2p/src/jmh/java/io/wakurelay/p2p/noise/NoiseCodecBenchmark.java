package io.wakurelay.p2p.noise;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * The Noise transport codecs of a connection, as a connection runs them: one write of {@code size} plaintext bytes
 * (pooled direct, as a muxer writes) through {@link NoiseFrameEncoder} (split into messages of at most 65,519
 * bytes, encrypted) and the bytes that come out through the peer's {@link NoiseFrameDecoder} (decrypted into pooled
 * buffers), with the JDK's or Conscrypt's cipher. One operation = one direction of one write, encrypt and decrypt on one core: bytes/s per core is
 * {@code size / score}. Run with {@code -prof gc} for the allocation per operation.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class NoiseCodecBenchmark {
    @Param({"1024", "65536"})
    int size;

    /** Whose ChaCha20-Poly1305: {@code jdk} or {@code conscrypt}. */
    @Param({"jdk", "conscrypt"})
    String aead;

    private EmbeddedChannel sender;
    private EmbeddedChannel receiver;
    private ByteBuf payload;

    @Setup
    public void setUp() {
        ChaChaPoly cipher = aead.equals("jdk") ? ChaChaPoly.JDK
                : ChaChaPoly.conscrypt().orElseThrow(() -> new IllegalStateException(ChaChaPoly.conscryptFailure()));
        NoiseHandshake initiator = NoiseHandshake.initiator(X25519.generate(), cipher);
        NoiseHandshake responder = NoiseHandshake.responder(X25519.generate(), cipher);
        responder.readMessage(initiator.writeMessage(new byte[0]));
        initiator.readMessage(responder.writeMessage(new byte[0]));
        responder.readMessage(initiator.writeMessage(new byte[0]));
        sender = new EmbeddedChannel(new NoiseFrameEncoder(initiator.split().sender(), NoiseCounters.NONE));
        receiver = new EmbeddedChannel(new NoiseFrameDecoder(responder.split().receiver(), NoiseCounters.NONE));
        payload = PooledByteBufAllocator.DEFAULT.directBuffer(size);
        for (int i = 0; i < size; i++) {
            payload.writeByte(i);
        }
    }

    @TearDown
    public void tearDown() {
        payload.release();
        sender.finishAndReleaseAll();
        receiver.finishAndReleaseAll();
    }

    @Benchmark
    public int encryptAndDecrypt() {
        sender.writeAndFlush(payload.retainedDuplicate());
        int plaintext = 0;
        for (ByteBuf frame; (frame = sender.readOutbound()) != null; ) {
            receiver.writeInbound(frame);
            for (ByteBuf out; (out = receiver.readInbound()) != null; ) {
                plaintext += out.readableBytes();
                out.release();
            }
        }
        return plaintext;
    }
}
