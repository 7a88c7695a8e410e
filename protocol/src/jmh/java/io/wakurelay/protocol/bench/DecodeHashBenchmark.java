package io.wakurelay.protocol.bench;

import com.google.protobuf.UnsafeByteOperations;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.EnvelopeDecoder;
import io.wakurelay.protocol.EnvelopeEncoder;
import io.wakurelay.protocol.MessageValidator;
import io.wakurelay.protocol.PathCounters;
import io.wakurelay.protocol.PayloadMix;
import io.wakurelay.protocol.ProtocolLimits;
import io.wakurelay.protocol.proto.WakuMessage;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * The receive path's decode + validate + hash of the default payload mix (seed 42), one message per
 * operation, from pooled direct buffers holding the WakuMessage bytes as the relay hands them over. Run with {@code -prof gc} for
 * allocated bytes per message.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class DecodeHashBenchmark {
    @Param({PayloadMix.DEFAULT_SPEC})
    public String mix;

    @Param({"1000"})
    public int messages;

    private ByteBuf[] frames;
    private EnvelopeDecoder decoder;
    private int next;
    private final MessageDigest sha256 = newSha256();

    private static MessageDigest newSha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Setup(Level.Trial)
    public void encodeFrames() {
        ProtocolLimits limits = ProtocolLimits.DEFAULTS.withMaxClockDrift(Duration.ZERO);
        MessageValidator validator = new MessageValidator(limits, System::nanoTime);
        EnvelopeEncoder encoder = new EnvelopeEncoder(validator, new PathCounters());
        decoder = new EnvelopeDecoder(validator, new PathCounters());
        int[] sizes = PayloadMix.parse(mix).sizes(PayloadMix.DEFAULT_SEED, messages);
        SplittableRandom random = new SplittableRandom(PayloadMix.DEFAULT_SEED);
        frames = new ByteBuf[messages];
        for (int i = 0; i < messages; i++) {
            byte[] payload = new byte[sizes[i]];
            random.nextBytes(payload);
            WakuMessage message = WakuMessage.newBuilder()
                    .setPayload(UnsafeByteOperations.unsafeWrap(payload))
                    .setContentTopic("/waku/2/default-content/proto")
                    .setTimestamp(1_700_000_000_000_000_000L + i)
                    .build();
            Envelope e = encoder.encode("/waku/2/rs/0/0", message, PooledByteBufAllocator.DEFAULT);
            frames[i] = e.messageBytes().retain();
            e.release();
        }
    }

    @TearDown(Level.Trial)
    public void releaseFrames() {
        for (ByteBuf frame : frames) {
            frame.release();
        }
    }

    @Benchmark
    public Object decodeValidateHash() {
        ByteBuf frame = frames[next];
        next = next + 1 == frames.length ? 0 : next + 1;
        Envelope envelope = decoder.decode("/waku/2/rs/0/0", frame.duplicate(), frame);
        Object hash = envelope.hash();
        envelope.release();
        return hash;
    }

    /** The ceiling under decodeValidateHash: SHA-256 of the same messages' bytes, nothing else. */
    @Benchmark
    public byte[] sha256Only() {
        ByteBuf frame = frames[next];
        next = next + 1 == frames.length ? 0 : next + 1;
        sha256.update(frame.nioBuffer(frame.readerIndex(), frame.readableBytes()));
        return sha256.digest();
    }
}
