package io.wakurelay.node;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import io.wakurelay.p2p.Host;
import io.wakurelay.p2p.HostConfig;
import io.wakurelay.p2p.connection.Connection;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.p2p.multiaddr.Multiaddr;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * One attacker of issue 43's p2p rows in {@code HostilePeerFuzzTest} (system-tests), seeded, until its deadline (ADR 0086):
 * <ul>
 * <li>{@link Persona#SQUATTER} (N1): a few hosts from one address, each under a fresh key, that complete Noise and yamux
 *     and answer {@code na} to identify, ping and everything else, dialling again as soon as the node closes them;</li>
 * <li>{@link Persona#WS_PINGER} (N2): {@code /wss} sockets with a 4 KiB receive buffer that upgrade to WebSocket and
 *     send ping frames without reading, a few hundred a second (not as fast as it can: the fuzzer's honest nodes share
 *     its JVM, and the node runs under the paranoid leak detector), opened again when the node closes them;</li>
 * <li>{@link Persona#TLS_RENEGOTIATOR} (N5): {@code /wss} clients that complete TLS 1.2 and the upgrade, then
 *     renegotiate.</li>
 * </ul>
 * What the node does to them is its right; only an attacker's own failure is a problem.
 */
final class P2pAttacker implements Runnable {
    enum Persona {
        SQUATTER, WS_PINGER, TLS_RENEGOTIATOR
    }

    private static final Duration WAIT = Duration.ofSeconds(10);
    private final Persona persona;
    private final Multiaddr target;
    private final InetSocketAddress webSocket;
    private final String from;
    private final Random random;
    private final long deadlineNanos;
    private final Set<String> kindsSent;
    private final List<String> problems;
    private final java.util.concurrent.atomic.AtomicInteger rounds = new java.util.concurrent.atomic.AtomicInteger();

    /**
     * @param webSocket the node's {@code /wss} listener
     * @param from      the address the squatters dial from (each attacker one of its own)
     */
    P2pAttacker(Persona persona, Multiaddr target, InetSocketAddress webSocket, String from, long seed,
                Duration runFor, Set<String> kindsSent, List<String> problems) {
        this.persona = persona;
        this.target = target;
        this.webSocket = webSocket;
        this.from = from;
        this.random = new Random(seed);
        this.deadlineNanos = System.nanoTime() + runFor.toNanos();
        this.kindsSent = kindsSent;
        this.problems = problems;
    }

    /** Connections or sockets the attacker got (a squatter's accepted connections, a pinger's upgrades, …). */
    int rounds() {
        return rounds.get();
    }

    private boolean over() {
        return System.nanoTime() - deadlineNanos >= 0 || Thread.currentThread().isInterrupted();
    }

    @Override
    public void run() {
        try {
            switch (persona) {
                case SQUATTER -> squat();
                case WS_PINGER -> ping();
                case TLS_RENEGOTIATOR -> renegotiate();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            problems.add(persona + ": " + e);
        }
    }

    /** 2 to 5 hosts (the per-address limit is 5), each dialling again 50-150 ms after the node closed it. */
    private void squat() throws InterruptedException {
        int count = 2 + random.nextInt(4);
        List<Host> hosts = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                Host h = Host.start(HostConfig.builder().listenAddress(new InetSocketAddress(from, 0))
                        .pingInterval(Duration.ofHours(1)).build(), PrivateKey.generateEd25519(), new SimpleMeterRegistry());
                for (String p : List.copyOf(h.protocols())) {
                    h.unhandle(p); // identify, identify push, ping: answered na
                }
                hosts.add(h);
                long pause = 50 + random.nextInt(100);
                Thread t = new Thread(() -> holdSlots(h, pause), "squatter-" + from + "-" + i);
                threads.add(t);
                t.start();
            }
            for (Thread t : threads) {
                t.join();
            }
        } finally {
            hosts.forEach(Host::close);
        }
    }

    private void holdSlots(Host host, long pauseMillis) {
        while (!over()) {
            try {
                Connection c = host.dial(target).block(WAIT);
                rounds.incrementAndGet();
                kindsSent.add("SQUATTER");
                c.onClose().block(Duration.ofNanos(Math.max(1, deadlineNanos - System.nanoTime())));
            } catch (RuntimeException e) {
                // refused, or the deadline: dial again
            }
            try {
                Thread.sleep(pauseMillis);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Upgrades to WebSocket over TLS and pings without reading, again whenever the node closes the socket. */
    private void ping() throws Exception {
        byte[] pings = pings(16 + random.nextInt(48));
        while (!over()) {
            try (SSLSocket socket = tls(4096)) {
                upgrade(socket);
                rounds.incrementAndGet();
                kindsSent.add("WS_PING_FLOOD");
                OutputStream out = socket.getOutputStream();
                while (!over()) {
                    out.write(pings);
                    Thread.sleep(100); // hundreds of pings a second: the receive buffer still fills in seconds
                }
            } catch (IOException e) {
                // closed by the node (its handshake deadline or write-stall guard): open another
            }
        }
    }

    /** Completes TLS 1.2 and the upgrade, then renegotiates; the node must close the connection. */
    private void renegotiate() throws Exception {
        while (!over()) {
            try (SSLSocket socket = tls(0)) {
                upgrade(socket);
                socket.startHandshake();
                kindsSent.add("TLS_RENEGOTIATION");
                rounds.incrementAndGet();
                socket.setSoTimeout(20_000); // the node closes at once; a loaded CI machine may take seconds
                InputStream in = socket.getInputStream();
                while (in.read() >= 0) {
                    // a close frame, then the end
                }
            } catch (SocketTimeoutException e) {
                problems.add("the node kept a /wss connection open after its client renegotiated TLS");
            } catch (IOException e) {
                // closed by the node, as it must
            }
            Thread.sleep(200 + random.nextInt(300));
        }
    }

    private SSLSocket tls(int receiveBufferBytes) throws Exception {
        SSLContext context = SSLContext.getInstance("TLSv1.2");
        context.init(null, InsecureTrustManagerFactory.INSTANCE.getTrustManagers(), null);
        SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket();
        if (receiveBufferBytes > 0) {
            socket.setReceiveBufferSize(receiveBufferBytes);
        }
        socket.connect(webSocket, 2000);
        socket.setEnabledProtocols(new String[]{"TLSv1.2"});
        socket.setSoTimeout((int) WAIT.toMillis());
        return socket;
    }

    private void upgrade(SSLSocket socket) throws IOException {
        socket.startHandshake();
        socket.getOutputStream().write(("GET / HTTP/1.1\r\nHost: 127.0.0.1:" + webSocket.getPort()
                + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                + "Sec-WebSocket-Version: 13\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        InputStream in = socket.getInputStream();
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed during the upgrade");
            }
            head.write(b);
        }
        if (!head.toString(StandardCharsets.US_ASCII).startsWith("HTTP/1.1 101")) {
            throw new IOException("upgrade refused: " + head);
        }
    }

    /** {@code n} masked ping frames of 125 bytes (the most a control frame carries). */
    private static byte[] pings(int n) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] mask = {1, 2, 3, 4};
        for (int i = 0; i < n; i++) {
            out.write(0x89);
            out.write(0x80 | 125);
            out.writeBytes(mask);
            for (int k = 0; k < 125; k++) {
                out.write(mask[k % 4]);
            }
        }
        return out.toByteArray();
    }
}
