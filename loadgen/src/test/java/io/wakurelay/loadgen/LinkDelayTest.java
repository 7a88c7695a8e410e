package io.wakurelay.loadgen;

import org.junit.jupiter.api.Test;

import java.io.DataInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

class LinkDelayTest {
    private static final Duration DELAY = Duration.ofMillis(100);

    /** An echo server on 127.0.0.1 for one connection: what it reads, it writes back. */
    private static ServerSocket echo() throws Exception {
        ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        Thread t = new Thread(() -> {
            try (Socket s = server.accept(); InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
                in.transferTo(out);
            } catch (Exception ignored) {
                // the test closed it
            }
        }, "echo");
        t.setDaemon(true);
        t.start();
        return server;
    }

    /** Writes {@code sent} on a thread of its own while reading as many bytes back, and returns them. */
    private static byte[] echoed(Socket client, byte[] sent) throws Exception {
        Thread writer = new Thread(() -> {
            try {
                client.getOutputStream().write(sent);
            } catch (Exception ignored) {
                // the reader's assertion says what went wrong
            }
        });
        writer.start();
        byte[] back = new byte[sent.length];
        new DataInputStream(client.getInputStream()).readFully(back);
        writer.join();
        return back;
    }

    @Test
    void aRoundTripThroughTheLinkTakesTwiceTheDelayAndEveryByteArrivesInOrder() throws Exception {
        byte[] sent = new byte[3 << 20]; // more than one read, fewer than the in-flight bound
        new SplittableRandom(1).nextBytes(sent);
        try (ServerSocket server = echo(); LinkDelay link = new LinkDelay(DELAY, 1)) {
            InetSocketAddress proxy = link.link(new InetSocketAddress(server.getInetAddress(), server.getLocalPort()));
            try (Socket client = new Socket(proxy.getAddress(), proxy.getPort())) {
                long start = System.nanoTime();
                client.getOutputStream().write(new byte[]{42});
                assertThat(client.getInputStream().read()).isEqualTo(42);
                assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(DELAY.multipliedBy(2));

                assertThat(Arrays.equals(echoed(client, sent), sent)).as("the bytes come back as sent, in order").isTrue();
            }
            assertThat(link.cpuNanos()).as("the proxy's threads' CPU is measured").isPositive();
        }
    }

    /** 8 Mbit/s is 1 MB/s: 400,000 bytes take 400 ms to go out, then the delay; a byte behind them waits as long. */
    @Test
    void withABandwidthBytesWaitForTheLineAndThoseAheadOfThem() throws Exception {
        byte[] sent = new byte[400_000];
        new SplittableRandom(2).nextBytes(sent);
        try (ServerSocket server = echo(); LinkDelay link = new LinkDelay(Duration.ofMillis(10), 8_000_000, 1)) {
            InetSocketAddress proxy = link.link(new InetSocketAddress(server.getInetAddress(), server.getLocalPort()));
            try (Socket client = new Socket(proxy.getAddress(), proxy.getPort())) {
                long start = System.nanoTime();
                byte[] back = echoed(client, sent);
                // each direction is a line of its own: 400 ms out, 400 ms back, overlapping but for the first bytes
                assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(400));
                assertThat(Arrays.equals(back, sent)).as("the bytes come back as sent, in order").isTrue();
            }
        }
    }

    @Test
    void aZeroDelayLinkForwardsAtOnce() throws Exception {
        try (ServerSocket server = echo(); LinkDelay link = new LinkDelay(Duration.ZERO, 1)) {
            InetSocketAddress proxy = link.link(new InetSocketAddress(server.getInetAddress(), server.getLocalPort()));
            try (Socket client = new Socket(proxy.getAddress(), proxy.getPort())) {
                long start = System.nanoTime();
                client.getOutputStream().write(new byte[]{7});
                assertThat(client.getInputStream().read()).isEqualTo(7);
                assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(DELAY);
            }
        }
    }
}
