package io.wakurelay.p2p.mux;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.wakurelay.p2p.connection.ProtocolHandler;
import io.wakurelay.p2p.connection.Stream;
import io.wakurelay.p2p.connection.StreamHandler;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The cost a muxer adds per frame, without encryption: one stream write of {@code size} bytes framed by the writing
 * session and parsed by the reading one (headers written and read, data delivered as slices, yamux credit given
 * back). One operation = one write delivered. Run with {@code -prof gc} for the allocation per frame.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class MuxerBenchmark {
    @Param({"yamux", "mplex"})
    String muxer;

    @Param({"1024", "65536"})
    int size;

    private EmbeddedChannel writer;
    private EmbeddedChannel reader;
    private Stream stream;
    private ByteBuf payload;
    private long delivered;

    @Setup
    public void setUp() {
        ProtocolHandler sink = s -> new StreamHandler() {
            @Override
            public void onData(Stream st, ByteBuf data) {
                delivered += data.readableBytes();
                data.release();
            }
        };
        MuxerLimits limits = new MuxerLimits(8, 8, Duration.ofSeconds(10), 4 << 20, 8 << 20, 8 << 20);
        boolean yamux = muxer.equals("yamux");
        MuxerSession dialer = yamux ? new YamuxSession(true, p -> null, limits, MuxerEvents.NONE)
                : new MplexSession(true, p -> null, limits, MuxerEvents.NONE);
        MuxerSession listener = yamux ? new YamuxSession(false, Map.of("/bench", sink)::get, limits, MuxerEvents.NONE)
                : new MplexSession(false, Map.of("/bench", sink)::get, limits, MuxerEvents.NONE);
        writer = new EmbeddedChannel(dialer);
        reader = new EmbeddedChannel(listener);
        var opened = dialer.openStream(List.of("/bench"), new StreamHandler() {
            @Override
            public void onData(Stream st, ByteBuf data) {
                data.release();
            }
        });
        pump();
        stream = opened.getNow();
        payload = PooledByteBufAllocator.DEFAULT.directBuffer(size).writeZero(size);
    }

    private void pump() {
        boolean moved = true;
        while (moved) {
            moved = false;
            for (ByteBuf b; (b = writer.readOutbound()) != null; ) {
                reader.writeInbound(b);
                moved = true;
            }
            for (ByteBuf b; (b = reader.readOutbound()) != null; ) {
                writer.writeInbound(b);
                moved = true;
            }
        }
    }

    @TearDown
    public void tearDown() {
        payload.release();
        writer.finishAndReleaseAll();
        reader.finishAndReleaseAll();
    }

    @Benchmark
    public long writeOneFrame() {
        stream.write(payload.retainedDuplicate());
        pump();
        return delivered;
    }
}
