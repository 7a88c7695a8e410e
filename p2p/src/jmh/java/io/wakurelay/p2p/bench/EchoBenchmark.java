package io.wakurelay.p2p.bench;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.p2p.connection.Connection;
import io.wakurelay.p2p.Host;
import io.wakurelay.p2p.HostConfig;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.p2p.echo.EchoClient;
import io.wakurelay.p2p.echo.EchoProtocol;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.p2p.ws.WebSocketConfig;
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

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Two hosts on loopback, one encrypted connection: one operation echoes {@link #FRAMES} writes of {@code chunk}
 * bytes over a new stream (one random chunk written again and again as fast as the stream takes it, read back
 * concurrently and counted; the interop and host tests check content), so each byte is encrypted and decrypted
 * twice. Echo throughput in bytes/s = FRAMES × chunk / score (each way; 2 cores for the two hosts' event loops);
 * with 1 KiB chunks the score / FRAMES is the cost of one small write through the whole stack (stream, muxer
 * frame, Noise, socket, and back), which is where the muxer's per-frame cost shows. {@code transport} {@code ws}
 * runs the same over libp2p's WebSocket transport (each Noise message one masked binary frame from the dialler, one
 * unmasked frame back).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class EchoBenchmark {
    /** Writes per operation, each way. */
    static final int FRAMES = 16_384;

    @Param({"/yamux/1.0.0", "/mplex/6.7.0"})
    String muxer;

    @Param({"1024", "65536"})
    int chunk;

    @Param({"tcp", "ws"})
    String transport;

    private Host server;
    private Host client;
    private Connection connection;

    @Setup
    public void setUp() {
        HostConfig config = HostConfig.builder().listenAddress(new InetSocketAddress("127.0.0.1", 0))
                .muxers(List.of(muxer)).build();
        boolean ws = transport.equals("ws");
        server = Host.start(config.toBuilder().webSocket(WebSocketConfig.DEFAULTS.toBuilder().listen(ws).port(0).build())
                .build(), PrivateKey.generateEd25519(), new SimpleMeterRegistry());
        server.handle(EchoProtocol.ID, EchoProtocol.server());
        client = Host.start(config.toBuilder().listenAddress(null).build(), PrivateKey.generateEd25519(), new SimpleMeterRegistry());
        Multiaddr address = server.listenAddresses().stream().filter(a -> a.isWebSocket() == ws).findFirst().orElseThrow();
        connection = client.dial(address).block(Duration.ofSeconds(10));
    }

    @TearDown
    public void tearDown() {
        client.close();
        server.close();
    }

    @Benchmark
    public EchoClient.Result echo() {
        long bytes = (long) FRAMES * chunk;
        EchoClient.Result result = EchoClient.run(connection, bytes, false, chunk).block(Duration.ofMinutes(5));
        if (result.bytes() != bytes) {
            throw new IllegalStateException("echo lost bytes: " + result);
        }
        return result;
    }
}
