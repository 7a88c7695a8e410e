package io.wakurelay.p2p;

import io.wakurelay.p2p.ws.WebSocketConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 43, N2: 40 {@code /ws} sockets that send ping frames and never read (a 4 KiB receive buffer), reopened when
 * the host closes them at the handshake deadline, held 223-265 MB of a node's 268 MB of direct memory: each queued
 * pongs up to its 4 MiB write high water mark, 5-8 MB a socket. Here {@code -Dn2.sockets} (10) such sockets for
 * {@code -Dn2.seconds} (12; the handshake deadline is 10 s, as the node's); the direct memory the host's pool hands
 * out must stay within {@link #BOUND} of where it was. (Under the tests' paranoid leak detector the host reads the
 * pings slowly enough that the kernel's socket buffers take most pongs; {@code WebSocketFramesTest} holds the one
 * pending pong exactly, and the hostile-peer fuzzer's WebSocket pingers play it against a node process.)
 */
@Tag("slow")
class WebSocketPingFloodTest {
    private static final int SOCKETS = Integer.getInteger("n2.sockets", 10);
    private static final int SECONDS = Integer.getInteger("n2.seconds", 12);
    /**
     * One pending pong per socket, the frames being read and the pools' caches: 16 MiB, or 512 KiB a socket for more
     * than 32 (40 sockets for 60 s at {@code -Xmx256m} without the leak detector: +17.3 MB; 10 sockets in a CI run on
     * a busy machine: +11.1 MB, the event loops' caches holding more; before, pongs could queue to 4 MiB a socket:
     * 5 to 8 MB each).
     */
    static final long BOUND = Math.max(16L << 20, SOCKETS * (512L << 10));
    private final TestHosts hosts = new TestHosts();
    private final ExecutorService pingers = Executors.newFixedThreadPool(SOCKETS);

    @AfterEach
    void close() throws InterruptedException {
        pingers.shutdownNow();
        assertThat(pingers.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        hosts.close();
    }

    @Test
    void socketsThatPingWithoutReadingQueueAtMostOnePongEach() throws Exception {
        // the node's handshake deadline; every socket from 127.0.0.1, so no per-address limit
        Host target = hosts.start(x -> x.handshakeTimeout(java.time.Duration.ofSeconds(10)).ipColocationLimit(0).webSocket(WebSocketConfig.DEFAULTS.toBuilder().listen(true).port(0).build()));
        long baseline = TestHosts.pooledBytesInUse();
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(SECONDS);
        AtomicInteger opened = new AtomicInteger();
        List<Future<?>> running = new ArrayList<>();
        for (int i = 0; i < SOCKETS; i++) {
            running.add(pingers.submit(() -> pingUntil(target.webSocketAddress(), until, opened)));
        }
        long peak = baseline;
        while (System.nanoTime() - until < 0) {
            peak = Math.max(peak, TestHosts.pooledBytesInUse());
            Thread.sleep(5);
        }
        for (Future<?> f : running) {
            f.get(30, TimeUnit.SECONDS);
        }

        double dropped = TestHosts.count(hosts.registry(target), "libp2p.replies.dropped", "reply", "websocket_pong");
        System.out.printf("WebSocketPingFloodTest, N2: %d sockets pinging without reading for %d s (%d opened): pooled "
                        + "direct memory in use +%.2f MB at its peak (bound %d MiB); pongs dropped %.0f%n", SOCKETS,
                SECONDS, opened.get(), (peak - baseline) / 1e6, BOUND >> 20, dropped);
        hosts.registry(target).find("libp2p.network.bytes").counters().stream().filter(c -> c.count() > 0)
                .forEach(c -> System.out.println("  bytes " + c.getId().getTags() + " " + c.count()));
        hosts.registry(target).find("libp2p.handshakes").counters().stream().filter(c -> c.count() > 0)
                .forEach(c -> System.out.println("  handshakes " + c.getId().getTags() + " " + c.count()));
        // how many pongs are dropped depends on how fast the host reads the pings (the kernel's buffers take the rest):
        // WebSocketFramesTest holds the one pending pong exactly
        assertThat(peak - baseline).as("direct memory the pings took").isLessThanOrEqualTo(BOUND);
    }

    /** Opens a WebSocket and pings without reading, again whenever the host closes it, until {@code until}. */
    private static Void pingUntil(InetSocketAddress address, long until, AtomicInteger opened) {
        byte[] pings = pings(256);
        while (System.nanoTime() - until < 0 && !Thread.currentThread().isInterrupted()) {
            try (RawWebSocket ws = new RawWebSocket(address, 4096)) {
                opened.incrementAndGet();
                ws.send(RawWebSocket.upgradeRequest("/", address.getPort()));
                ws.readHead();
                while (System.nanoTime() - until < 0) {
                    ws.send(pings);
                }
            } catch (IOException e) {
                // closed by the host (the handshake deadline): open another
            }
        }
        return null;
    }

    /** {@code n} masked ping frames of 125 bytes each (the most a control frame carries). */
    private static byte[] pings(int n) {
        byte[] one = RawWebSocket.frame(0x9, new byte[125]);
        byte[] all = new byte[one.length * n];
        for (int i = 0; i < n; i++) {
            System.arraycopy(one, 0, all, i * one.length, one.length);
        }
        return all;
    }
}
