package io.wakurelay.node;

import com.google.protobuf.ByteString;
import com.sun.management.UnixOperatingSystemMXBean;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.util.internal.PlatformDependent;
import io.wakurelay.protocol.MessageHasher;
import io.wakurelay.protocol.PathCounters;
import io.wakurelay.protocol.proto.Goodbye;
import io.wakurelay.protocol.proto.WakuMessage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A node's peer port under attack at scale, while a well-behaved peer and REST clients use it. Hostile clients
 * run in parallel, {@code hostile.perKind} of each kind: random bytes, a frame cut short, a length prefix past the
 * max frame size, a varint that never ends, valid frames carrying invalid messages past the allowance, no Hello
 * (slowloris), garbage instead of Hello. Then a flood of idle connections (2,000, or fewer when the file limit is
 * low) far past {@code --max-connections}. Each hostile connection must be closed by the node, with the reason
 * counted in its metrics; the good peer's messages keep arriving and being archived, the node's own (REST)
 * messages keep reaching the good peer, /health keeps answering 200; direct and heap memory stay within bounds.
 */
class HostilePeersAtScaleTest {
    private static final String CONTENT = "/app/1/good/proto";
    private static final int PER_KIND = Integer.getInteger("hostile.perKind", 25);
    private static final int FLOOD = Integer.getInteger("hostile.flood", 2000);
    private static final int MAX_CONNECTIONS = 200;
    /**
     * Short, so that random bytes whose first bytes announce a frame the peer never completes (it goes quiet
     * after its 64 KiB) are closed as idle within seconds: such a peer holds at most one max frame for this long.
     */
    private static final Duration IDLE_TIMEOUT = Duration.ofSeconds(4);
    private static final long MIB = 1 << 20;

    @TempDir
    Path dir;
    private WakuNode target;
    private WakuNode good;
    private final List<PeerSocket> flood = new ArrayList<>();

    enum Kind { RANDOM_BYTES, TRUNCATED_FRAME, OVERSIZED_PREFIX, ENDLESS_VARINT, INVALID_MESSAGES, NO_HELLO, GARBAGE_BEFORE_HELLO }

    @BeforeEach
    void start() {
        target = WakuNode.start(NodeMain.parse(new String[]{"--data-dir", dir.resolve("target").toString(), "--listen-address", "127.0.0.1",
                "--tcp-port", "0", "--rest-port", "0", "--metrics-server-port", "0", "--max-connections", String.valueOf(MAX_CONNECTIONS),
                "--handshake-timeout", "2s", "--idle-timeout", IDLE_TIMEOUT.toSeconds() + "s"}, Map.of()));
        good = WakuNode.start(NodeMain.parse(new String[]{"--data-dir", dir.resolve("good").toString(), "--listen-address", "127.0.0.1",
                "--tcp-port", "0", "--rest", "false", "--metrics-server", "false", "--store", "false",
                "--staticnode", "127.0.0.1:" + target.peerAddress().getPort()}, Map.of()));
        Eventually.until(Duration.ofSeconds(30), "the good peer is connected", () -> good.peers().size() == 1 && target.peers().size() == 1);
    }

    @AfterEach
    void stop() {
        flood.forEach(PeerSocket::close);
        if (good != null) {
            good.close();
        }
        if (target != null) {
            target.close();
        }
    }

    /** Good traffic both ways, and /health, all the time the attack runs. */
    private final class GoodTraffic implements AutoCloseable {
        final Set<String> sentByPeer = ConcurrentHashMap.newKeySet();
        final Set<String> sentOverRest = ConcurrentHashMap.newKeySet();
        final Set<String> receivedByPeer = ConcurrentHashMap.newKeySet();
        final List<String> problems = new CopyOnWriteArrayList<>();
        final AtomicLong healthChecks = new AtomicLong();
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final AutoCloseable tap;
        private final Thread thread;

        GoodTraffic() {
            tap = good.tap(e -> receivedByPeer.add(e.hash().toHex()));
            Http rest = new Http(target.restAddress());
            MessageHasher hasher = new MessageHasher(new PathCounters());
            thread = new Thread(() -> {
                int i = 0;
                while (running.get()) {
                    i++;
                    WakuMessage fromPeer = message("from the good peer " + i);
                    try {
                        sentByPeer.add(good.relay().publish(PeerSocket.TOPIC, fromPeer).block(Duration.ofSeconds(10)).hash().toHex());
                        WakuMessage overRest = message("over REST " + i);
                        String body = "{\"payload\":\"" + Base64.getEncoder().encodeToString(overRest.getPayload().toByteArray())
                                + "\",\"contentTopic\":\"" + CONTENT + "\",\"timestamp\":" + overRest.getTimestamp() + "}";
                        Http.Reply reply = rest.post("/relay/v1/messages/" + Http.topic(PeerSocket.TOPIC), body);
                        if (reply.status() != 200) {
                            problems.add("REST publish answered " + reply.status() + " " + reply.body());
                        } else {
                            sentOverRest.add(hasher.hash(PeerSocket.TOPIC, overRest).toHex());
                        }
                        Http.Reply health = rest.get("/health");
                        healthChecks.incrementAndGet();
                        if (health.status() != 200) {
                            problems.add("/health answered " + health.status() + " " + health.body());
                        }
                        Thread.sleep(20);
                    } catch (InterruptedException e) {
                        return;
                    } catch (RuntimeException | AssertionError e) {
                        problems.add(e.toString());
                    }
                }
            }, "good-traffic");
            thread.start();
        }

        private static WakuMessage message(String text) {
            return WakuMessage.newBuilder().setPayload(ByteString.copyFromUtf8(text)).setContentTopic(CONTENT)
                    .setTimestamp(WakuNode.nowNanos()).build();
        }

        @Override
        public void close() throws Exception {
            running.set(false);
            thread.join(30_000);
            tap.close();
        }
    }

    /** Peak Netty direct memory while the attack runs. */
    private static final class MemoryWatch implements AutoCloseable {
        final AtomicLong peakDirect = new AtomicLong();
        final AtomicLong peakPooledDirect = new AtomicLong();
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final Thread thread = new Thread(() -> {
            while (running.get()) {
                peakDirect.accumulateAndGet(PlatformDependent.usedDirectMemory(), Math::max);
                peakPooledDirect.accumulateAndGet(PooledByteBufAllocator.DEFAULT.metric().usedDirectMemory(), Math::max);
                try {
                    Thread.sleep(25);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "memory-watch");

        MemoryWatch() {
            thread.setDaemon(true);
            thread.start();
        }

        @Override
        public void close() throws InterruptedException {
            running.set(false);
            thread.join();
        }
    }

    private record Memory(long heap, long direct, long pooledDirect) {
        static Memory afterGc() {
            MemoryMXBean bean = ManagementFactory.getMemoryMXBean();
            for (int i = 0; i < 3; i++) {
                System.gc();
                sleep(50);
            }
            return new Memory(bean.getHeapMemoryUsage().getUsed(), PlatformDependent.usedDirectMemory(),
                    PooledByteBufAllocator.DEFAULT.metric().usedDirectMemory());
        }

        @Override
        public String toString() {
            return String.format("heap %.1f MiB, Netty direct %.1f MiB (pooled %.1f MiB)", heap / (double) MIB, direct / (double) MIB,
                    pooledDirect / (double) MIB);
        }
    }

    @Test
    void hostilePeersAndAConnectionFloodAreRefusedAtABoundedCostWhileGoodTrafficFlows() throws Exception {
        InetSocketAddress address = new InetSocketAddress("127.0.0.1", target.peerAddress().getPort());
        MeterRegistry metrics = target.metrics().registry();
        Memory before = Memory.afterGc();
        Map<Kind, List<Goodbye.Reason>> outcomes = new EnumMap<>(Kind.class);
        List<String> stillOpen = new CopyOnWriteArrayList<>();
        int floodSize;
        long floodMillis;
        GoodTraffic traffic = new GoodTraffic();
        try (traffic; MemoryWatch watch = new MemoryWatch()) {
            // phase 1: every kind of bad input, PER_KIND connections each, 16 at a time
            ExecutorService pool = Executors.newFixedThreadPool(16);
            try {
                Map<Kind, List<Future<Goodbye.Reason>>> futures = new EnumMap<>(Kind.class);
                for (int i = 0; i < PER_KIND; i++) {
                    for (Kind kind : Kind.values()) {
                        int n = i;
                        futures.computeIfAbsent(kind, k -> new ArrayList<>()).add(pool.submit(() -> attack(kind, n, address, stillOpen)));
                    }
                }
                for (var e : futures.entrySet()) {
                    List<Goodbye.Reason> reasons = new ArrayList<>();
                    for (Future<Goodbye.Reason> f : e.getValue()) {
                        reasons.add(f.get(120, TimeUnit.SECONDS));
                    }
                    outcomes.put(e.getKey(), reasons);
                }
            } finally {
                pool.shutdownNow();
            }
            assertThat(stillOpen).as("hostile connections the node left open").isEmpty();

            // phase 2: a flood of idle connections, far past --max-connections
            floodSize = floodSize();
            long floodStart = System.nanoTime();
            for (int i = 0; i < floodSize; i++) {
                flood.add(PeerSocket.connect(address));
            }
            int closedByNode = 0;
            for (PeerSocket s : flood) {
                try {
                    s.awaitClose(Duration.ofSeconds(30));
                    closedByNode++;
                } catch (IOException e) {
                    stillOpen.add("flood connection: " + e);
                }
                s.close();
            }
            floodMillis = (System.nanoTime() - floodStart) / 1_000_000;
            assertThat(closedByNode).as("idle flood connections closed by the node").isEqualTo(floodSize);
            System.out.printf("HostilePeersAtScaleTest: memory peaks during the attack: Netty direct %.1f MiB, pooled direct %.1f MiB%n",
                    watch.peakDirect.get() / (double) MIB, watch.peakPooledDirect.get() / (double) MIB);
            long budget = MAX_CONNECTIONS * ((1L << 20) + (64L << 10)) + (300L * 150 << 10); // relay.md: per connection + local delivery
            assertThat(watch.peakDirect.get() - before.direct).as("direct memory growth stays within the configured budget").isLessThan(budget);
            assertThat(watch.peakDirect.get() - before.direct).as("and, in fact, far below it").isLessThan(128 * MIB);
        }

        // every hostile client was refused for the reason its kind earns
        assertThat(outcomes.get(Kind.OVERSIZED_PREFIX)).containsOnly(Goodbye.Reason.FRAME_TOO_LARGE);
        assertThat(outcomes.get(Kind.ENDLESS_VARINT)).containsOnly(Goodbye.Reason.PROTOCOL_VIOLATION);
        assertThat(outcomes.get(Kind.INVALID_MESSAGES)).containsOnly(Goodbye.Reason.PROTOCOL_VIOLATION);
        assertThat(outcomes.get(Kind.NO_HELLO)).containsOnly(Goodbye.Reason.HANDSHAKE_TIMEOUT);
        assertThat(outcomes.get(Kind.GARBAGE_BEFORE_HELLO)).containsOnly(Goodbye.Reason.PROTOCOL_VIOLATION);
        assertThat(outcomes.get(Kind.RANDOM_BYTES)).hasSize(PER_KIND)
                .containsOnly(Goodbye.Reason.FRAME_TOO_LARGE, Goodbye.Reason.PROTOCOL_VIOLATION, Goodbye.Reason.IDLE_TIMEOUT);
        assertThat(outcomes.get(Kind.TRUNCATED_FRAME)).hasSize(PER_KIND);

        // ... and counted
        Eventually.until(Duration.ofSeconds(10), "every truncated frame is counted",
                () -> counter(metrics, "waku.relay.messages.invalid", "reason", "truncated_frame") >= PER_KIND);
        assertThat(counter(metrics, "waku.relay.messages.invalid", "reason", "frame_too_large")).isGreaterThanOrEqualTo(PER_KIND);
        assertThat(counter(metrics, "waku.relay.messages.invalid", "reason", "malformed_length_prefix")).isGreaterThanOrEqualTo(PER_KIND);
        assertThat(counter(metrics, "waku.relay.messages.invalid", "reason", "invalid_content_topic")).isGreaterThanOrEqualTo(PER_KIND * 100L);
        double framing = counter(metrics, "waku.relay.messages.invalid", "reason", "frame_too_large")
                + counter(metrics, "waku.relay.messages.invalid", "reason", "malformed_length_prefix")
                + counter(metrics, "waku.relay.messages.invalid", "reason", "malformed_frame")
                + counter(metrics, "waku.relay.messages.invalid", "reason", "truncated_frame");
        assertThat(framing).as("one framing violation per connection that broke framing").isGreaterThanOrEqualTo(4 * PER_KIND);
        assertThat(counter(metrics, "waku.relay.connections.rejected", "reason", "protocol_violation")).isGreaterThanOrEqualTo(PER_KIND);
        int idle = PER_KIND + floodSize;
        Eventually.until(Duration.ofSeconds(10), "every idle connection (slowloris and flood) is refused and counted",
                () -> counter(metrics, "waku.relay.connections.rejected", "reason", "handshake_timeout")
                        + counter(metrics, "waku.relay.connections.rejected", "reason", "too_many_connections") == idle);
        double handshakeTimeouts = counter(metrics, "waku.relay.connections.rejected", "reason", "handshake_timeout");
        double tooMany = counter(metrics, "waku.relay.connections.rejected", "reason", "too_many_connections");
        assertThat(tooMany).as("the flood went past --max-connections").isPositive();

        // the good peer and REST were served all along
        assertThat(traffic.problems).isEmpty();
        assertThat(good.peers()).hasSize(1);
        assertThat(traffic.sentByPeer).hasSizeGreaterThan(20);
        Eventually.until(Duration.ofSeconds(20), "the good peer received every message published over REST",
                () -> traffic.receivedByPeer.containsAll(traffic.sentOverRest));
        Http rest = new Http(target.restAddress());
        try {
            Eventually.until(Duration.ofSeconds(30), "every good message is archived",
                    () -> stored(rest, traffic.sentByPeer) == traffic.sentByPeer.size() && stored(rest, traffic.sentOverRest) == traffic.sentOverRest.size());
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + ": from the peer " + stored(rest, traffic.sentByPeer) + " of " + traffic.sentByPeer.size()
                    + ", over REST " + stored(rest, traffic.sentOverRest) + " of " + traffic.sentOverRest.size() + "; accepted "
                    + counter(metrics, "waku.relay.messages.accepted") + "; target metrics:\n" + grep(target.metrics().scrape(),
                    "waku_relay_messages_invalid_total", "waku_relay_peer_disconnects_total", "waku_relay_messages_received_total",
                    "waku_relay_messages_duplicate_total", "waku_archive_inserts_total", "waku_relay_peer_drops_total")
                    + "\ngood peer:\n" + grep(good.metrics().scrape(), "waku_relay_peer_disconnects_total", "waku_relay_peer_drops_total",
                    "waku_relay_messages_relayed_total"), e);
        }

        assertThat(counter(metrics, "waku.relay.messages.accepted")).as("nothing hostile was accepted")
                .isEqualTo(traffic.sentByPeer.size() + traffic.sentOverRest.size());

        Memory after = Memory.afterGc();
        System.out.println("HostilePeersAtScaleTest: Goodbye reasons by kind: " + outcomes);
        System.out.printf("HostilePeersAtScaleTest: %d hostile connections (%d kinds x %d) and a flood of %d idle connections in %d ms; "
                        + "%d good messages each way, %d health checks; rejected: handshake_timeout %.0f, too_many_connections %.0f; "
                        + "before: %s; after: %s%n", PER_KIND * Kind.values().length, Kind.values().length, PER_KIND, floodSize, floodMillis,
                traffic.sentByPeer.size(), traffic.healthChecks.get(), handshakeTimeouts, tooMany, before, after);
        assertThat(after.direct - before.direct).as("direct memory after the attack").isLessThan(64 * MIB);
        assertThat(after.heap - before.heap).as("heap after the attack").isLessThan(64 * MIB);
        assertThat(target.peers()).as("only the good peer is left").hasSize(1);
    }

    private static int stored(Http rest, Set<String> hashes) {
        List<String> all = new ArrayList<>(hashes);
        int found = 0;
        for (int i = 0; i < all.size(); i += 100) {
            String query = "/store/v3/messages?pageSize=100&hashes=" + String.join(",", all.subList(i, Math.min(all.size(), i + 100)));
            found += rest.get(query).json().get("messages").size();
        }
        return found;
    }

    /** 2,000 idle connections, or as many as this process's file limit allows (each costs two descriptors here). */
    private static int floodSize() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof UnixOperatingSystemMXBean os) {
            long room = (os.getMaxFileDescriptorCount() - os.getOpenFileDescriptorCount() - 500) / 2;
            return (int) Math.max(MAX_CONNECTIONS + 50, Math.min(FLOOD, room));
        }
        return FLOOD;
    }

    private static Goodbye.Reason attack(Kind kind, int n, InetSocketAddress address, List<String> stillOpen) throws IOException {
        Random random = new Random(kind.ordinal() * 1000L + n);
        try (PeerSocket s = PeerSocket.connect(address)) {
            try {
                switch (kind) {
                    case RANDOM_BYTES -> {
                        s.handshake("noise-" + n);
                        byte[] noise = new byte[64 << 10];
                        random.nextBytes(noise);
                        s.sendRaw(noise);
                    }
                    case TRUNCATED_FRAME -> {
                        s.handshake("cut-short-" + n);
                        byte[] whole = PeerSocket.bytes(PeerSocket.publish(WakuMessage.newBuilder()
                                .setPayload(ByteString.copyFrom(new byte[5000])).setContentTopic(CONTENT).setTimestamp(WakuNode.nowNanos()).build()));
                        s.sendRaw(Arrays.copyOf(whole, whole.length / 2));
                        return null; // the peer hangs up itself: nothing to wait for
                    }
                    case OVERSIZED_PREFIX -> {
                        s.handshake("oversized-" + n);
                        s.sendRaw(new byte[]{(byte) 0x80, (byte) 0x80, (byte) 0x80, 0x01}); // 2 MiB announced
                    }
                    case ENDLESS_VARINT -> {
                        s.handshake("endless-varint-" + n);
                        byte[] endless = new byte[10];
                        Arrays.fill(endless, (byte) 0x80);
                        s.sendRaw(endless);
                    }
                    case INVALID_MESSAGES -> {
                        s.handshake("invalid-" + n);
                        for (int i = 0; i <= 100; i++) { // the default allowance is 100
                            s.send(PeerSocket.publish(WakuMessage.newBuilder().setPayload(ByteString.copyFromUtf8("x" + i))
                                    .setContentTopic("no-slashes").setTimestamp(WakuNode.nowNanos()).build()));
                        }
                    }
                    case NO_HELLO -> {
                        // connect and say nothing
                    }
                    case GARBAGE_BEFORE_HELLO -> s.sendRaw(new byte[]{3, 1, 2, 3});
                    default -> throw new IllegalStateException();
                }
            } catch (IOException e) {
                // the node may close while we still write: what matters is that it closes, below
            }
            try {
                return s.awaitClose(Duration.ofSeconds(30));
            } catch (IOException e) {
                stillOpen.add(kind + " " + n + ": " + e);
                return null;
            }
        }
    }

    private static String grep(String exposition, String... names) {
        StringBuilder b = new StringBuilder();
        for (String line : exposition.split("\n")) {
            for (String name : names) {
                if (line.startsWith(name)) {
                    b.append(line).append('\n');
                }
            }
        }
        return b.toString();
    }

    private static double counter(MeterRegistry registry, String name, String... tags) {
        Counter c = registry.find(name).tags(tags).counter();
        return c == null ? 0 : c.count();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
