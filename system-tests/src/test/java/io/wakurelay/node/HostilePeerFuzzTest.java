package io.wakurelay.node;

import com.google.protobuf.ByteString;
import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.testkit.Eventually;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.netty.handler.ssl.util.SelfSignedCertificate;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A node under a seeded hostile-peer fuzzer while honest peers use it. The node runs as a process of its own, as
 * operators run it ({@code -Xmx256m -XX:+ExitOnOutOfMemoryError}, Netty's paranoid leak detector), with two honest
 * relay nodes as its static peers: one publishes a message every 50 ms, the other only receives. Meanwhile
 * {@code fuzz.peers} {@link FuzzPeer}s, each under a new identity per session and from an address of its own, write
 * {@link HostileRelaySteps} (every control kind, valid and invalid WakuMessages, known and unknown topics, duplicates,
 * RPCs packed to the limit, oversized and truncated frames): half of them anything ({@code CHAOTIC}), half control
 * floods only, for as long as the node keeps them ({@code CONTROL_FLOODER}); and {@code fuzz.slowReaders} peers join
 * the mesh and never read; and, for issue 43's p2p rows, {@code fuzz.p2pAttackers} of each {@link P2pAttacker}
 * persona: squatters that handshake and answer nothing (N1; the node's grace period is 2 s here), {@code /wss}
 * sockets that ping without reading (N2) and {@code /wss} clients that renegotiate TLS (N5); all for
 * {@code fuzz.seconds}.
 *
 * <p>Asserted: the node stays up and healthy; its heap after a full GC grows by less than {@link #HEAP_GROWTH}, its
 * Netty direct memory never passes {@link #DIRECT_PEAK}, and the direct buffers it has handed out come back to within
 * {@link #BUFFERS_LEFT} of where they were once the attackers are gone (the pool keeps its chunks: that total grows in
 * 4 MiB steps and is bounded by the peak); every honest message is archived by the node and delivered to the honest
 * receiver; every kind of attack that was sent shows in the node's metrics with its reason; no buffer leaked.
 * {@code -Dfuzz.seed=N} replays a run (the seed is printed); docs/reliability.md has a larger run. With
 * {@code -Dfuzz.peers=0 -Dfuzz.slowReaders=0} the honest traffic runs alone, the run to compare with.
 */
@Tag("process")
@Tag("slow")
class HostilePeerFuzzTest {
    private static final long SEED = Long.getLong("fuzz.seed", 2027L);
    private static final int PEERS = Integer.getInteger("fuzz.peers", 4);
    private static final int SLOW_READERS = Integer.getInteger("fuzz.slowReaders", 1);
    private static final int SECONDS = Integer.getInteger("fuzz.seconds", 20);
    private static final int P2P_ATTACKERS = Integer.getInteger("fuzz.p2pAttackers", 1);
    private static final String TOPIC = "/waku/2/rs/0/0";
    private static final String CONTENT = "/app/1/honest/proto";
    private static final Duration RPC_READ_TIMEOUT = Duration.ofSeconds(2);
    private static final List<String> JVM = List.of("-Xmx256m", "-XX:+ExitOnOutOfMemoryError",
            "-Dio.netty.leakDetection.level=paranoid");
    private static final double MIB = 1 << 20;
    static final double HEAP_GROWTH = 48 * MIB;
    static final double DIRECT_PEAK = 96 * MIB;
    /** Two of the pool's chunks: the honest traffic alone leaves 3.4 MiB in the threads' caches (docs/reliability.md). */
    static final double BUFFERS_LEFT = 8 * MIB;

    @TempDir
    Path dir;

    @Test
    void hostilePeersCannotExhaustTheNodeAndHonestMessagesAllGetThrough() throws Exception {
        System.out.printf("HostilePeerFuzzTest: seed %d, %d hostile peers and %d slow readers for %d s%n", SEED, PEERS,
                SLOW_READERS, SECONDS);
        Set<String> delivered = ConcurrentHashMap.newKeySet();
        SelfSignedCertificate cert = new SelfSignedCertificate("localhost");
        int wssPort;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            wssPort = free.getLocalPort();
        }
        try (AutoCloseable certFiles = cert::delete;
             WakuNode publisher = WakuNode.start(TestNodes.local(dir.resolve("publisher"))
                .host(TestNodes.host("127.0.0.2").build()).rest(null).archive(null).build());
             WakuNode receiver = WakuNode.start(TestNodes.local(dir.resolve("receiver"))
                     .host(TestNodes.host("127.0.0.3").build()).rest(null).archive(null).build());
             AutoCloseable tap = receiver.tap(e -> delivered.add(e.hash().toHex()));
             NodeProcess target = NodeProcess.start(JVM, targetArgs(dir.resolve("target-data"), publisher, receiver,
                     cert, wssPort), Duration.ofSeconds(60), dir.resolve("target.log"))) {
            Http rest = new Http(target.restAddress());
            Http metrics = new Http(target.metricsAddress());
            Eventually.until("both honest peers are in the node's mesh", Duration.ofSeconds(30),
                    () -> inMesh(publisher, target) && inMesh(receiver, target));
            Memory before = Memory.afterGc(target, metrics);

            Set<String> kindsSent = ConcurrentHashMap.newKeySet();
            List<String> problems = new CopyOnWriteArrayList<>();
            List<String> published = new CopyOnWriteArrayList<>();
            List<FuzzPeer> peers = new ArrayList<>();
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < PEERS + SLOW_READERS; i++) {
                FuzzPeer.Persona persona = i >= PEERS ? FuzzPeer.Persona.SLOW_READER
                        : i % 2 == 0 ? FuzzPeer.Persona.CHAOTIC : FuzzPeer.Persona.CONTROL_FLOODER;
                FuzzPeer peer = new FuzzPeer(target.multiaddr(), "127.0.0." + (20 + i), SEED + i, 4 * i, Duration.ofSeconds(SECONDS),
                        persona, TOPIC, CONTENT, RPC_READ_TIMEOUT.multipliedBy(2), kindsSent, problems);
                peers.add(peer);
                threads.add(new Thread(peer, "fuzz-peer-" + i));
            }
            List<P2pAttacker> attackers = new ArrayList<>();
            InetSocketAddress wss = new InetSocketAddress("127.0.0.1", wssPort);
            for (int i = 0; i < P2P_ATTACKERS; i++) {
                for (P2pAttacker.Persona persona : P2pAttacker.Persona.values()) {
                    P2pAttacker a = new P2pAttacker(persona, target.multiaddr(), wss, "127.0.0." + (40 + i),
                            SEED + 100 * i + persona.ordinal(), Duration.ofSeconds(SECONDS), kindsSent, problems);
                    attackers.add(a);
                    threads.add(new Thread(a, "p2p-attacker-" + persona + "-" + i));
                }
            }
            AtomicBoolean publishing = new AtomicBoolean(true);
            Thread honest = new Thread(() -> publish(publisher, publishing, published, problems), "honest-publisher");
            try (NodeMemory.Peaks peaks = new NodeMemory.Peaks(() -> metrics.get("/metrics").body(), 50)) {
                honest.start();
                threads.forEach(Thread::start);
                Thread.sleep(TimeUnit.SECONDS.toMillis(SECONDS)); // the honest traffic as long as the attack, or alone
                for (Thread t : threads) {
                    t.join(TimeUnit.SECONDS.toMillis(SECONDS + 60));
                    assertThat(t.isAlive()).as(t.getName() + " ended").isFalse();
                }
                publishing.set(false);
                honest.join(30_000);
                System.out.printf("HostilePeerFuzzTest: peak while attacked: %s (%d samples)%n", peaks.peak(), peaks.samples());
                assertThat(peaks.peak().direct()).as("Netty direct memory at its peak").isLessThan(DIRECT_PEAK);
            }
            int sessions = peers.stream().mapToInt(FuzzPeer::sessions).sum();
            System.out.printf("HostilePeerFuzzTest: %d sessions (each a new identity), kinds sent %s, %d honest messages%n",
                    sessions, new TreeSet<>(kindsSent), published.size());

            assertThat(target.isAlive()).as("the node is up").isTrue();
            assertThat(rest.get("/health").status()).isEqualTo(200);
            assertThat(problems).as("problems on the honest side").isEmpty();
            assertThat(published).as("honest messages published").hasSizeGreaterThan(SECONDS * 10);
            Eventually.until("every honest message is archived by the node", Duration.ofSeconds(60),
                    () -> stored(rest, published) == published.size());
            Eventually.until(() -> delivered.containsAll(published), () -> "every honest message reached the honest receiver: "
                    + published.stream().filter(h -> !delivered.contains(h)).count() + " of " + published.size()
                    + " missing; the node's drops: " + metricLines(metrics, "waku_relay_peer_drops_total"));

            String exposition = metrics.get("/metrics").body();
            List<String> unseen = new ArrayList<>();
            for (String kind : kindsSent) {
                String shownBy = FuzzMetrics.SHOWN_BY.get(kind);
                if (shownBy != null && FuzzMetrics.shown(exposition, shownBy) <= 0) {
                    unseen.add(kind + " (" + shownBy + ")");
                }
            }
            System.out.printf("HostilePeerFuzzTest: the node counted: graylisted %.0f, slow_consumer %.0f, write_stalled %.0f; "
                            + "messages invalid %.0f; control ignored %.0f; relay streams reset %.0f; drops: message %.0f, "
                            + "control %.0f; GRAFTs dropped unparsed with their RPC (rpc_limit) %.0f%n",
                    FuzzMetrics.sum(exposition, "waku_relay_peer_disconnects_total{reason=\"graylisted\""),
                    FuzzMetrics.sum(exposition, "waku_relay_peer_disconnects_total{reason=\"slow_consumer\""),
                    FuzzMetrics.sum(exposition, "libp2p_disconnects_total{reason=\"write_stalled\""),
                    FuzzMetrics.sum(exposition, "waku_relay_messages_invalid_total"),
                    FuzzMetrics.sum(exposition, "waku_relay_control_ignored_total"),
                    FuzzMetrics.sum(exposition, "waku_relay_inbound_stream_resets_total"),
                    FuzzMetrics.sum(exposition, "waku_relay_peer_drops_total{kind=\"message\""),
                    FuzzMetrics.sum(exposition, "waku_relay_peer_drops_total{kind=\"control\""),
                    FuzzMetrics.sum(exposition, "waku_relay_control_ignored_total{kind=\"graft\",reason=\"rpc_limit\""));
            System.out.printf("HostilePeerFuzzTest: p2p attackers (%s): squatters pruned %.0f, evicted %.0f; WebSocket "
                            + "pongs dropped %.0f, reads paused %.0f, wss sockets closed at the deadline %.0f or stalled "
                            + "%.0f; TLS renegotiations refused %.0f%n",
                    attackers.stream().map(a -> a.rounds() + "").toList(),
                    FuzzMetrics.sum(exposition, "libp2p_disconnects_total{reason=\"unidentified\""),
                    FuzzMetrics.sum(exposition, "libp2p_disconnects_total{reason=\"evicted\""),
                    FuzzMetrics.sum(exposition, "libp2p_replies_dropped_total{reply=\"websocket_pong\""),
                    FuzzMetrics.sum(exposition, "libp2p_read_pauses_total{reason=\"unwritable\""),
                    FuzzMetrics.sum(exposition, "libp2p_handshakes_total{outcome=\"timeout\",transport=\"wss\""),
                    FuzzMetrics.sum(exposition, "libp2p_handshakes_total{outcome=\"write_stalled\",transport=\"wss\""),
                    FuzzMetrics.sum(exposition, "libp2p_websocket_tls_renegotiations_refused_total"));
            assertThat(unseen).as("attacks sent but not in the node's metrics").isEmpty();
            if (PEERS > 0) {
                assertThat(FuzzMetrics.sum(exposition, "waku_relay_peer_disconnects_total{reason=\"graylisted\""))
                        .as("peers graylisted and disconnected").isPositive();
            }

            // the message cache keeps the last messages for its history (6 heartbeats): what is left after it are the
            // buffers the attack made the node hold
            Eventually.until("the message cache let its messages go", Duration.ofSeconds(30),
                    () -> Http.metric(metrics.get("/metrics").body(), "waku_relay_message_cache_bytes") == 0);
            Memory after = Memory.afterGc(target, metrics);
            System.out.printf("HostilePeerFuzzTest: after GC, before the attack %s; after it %s%n", before, after);
            assertThat(after.heap - before.heap).as("heap growth after GC").isLessThan(HEAP_GROWTH);
            assertThat(after.buffers - before.buffers).as("direct buffers still handed out after the attackers left")
                    .isLessThan(BUFFERS_LEFT);
            assertThat(target.output()).as("the node's log").noneMatch(line -> line.contains("LEAK:"))
                    .noneMatch(line -> line.contains("OutOfMemoryError"));
        }
    }

    private static List<String> targetArgs(Path data, WakuNode publisher, WakuNode receiver,
                                           SelfSignedCertificate cert, int wssPort) {
        return List.of("--data-dir", data.toString(), "--listen-address", "127.0.0.1", "--tcp-port", "0", "--rest-port", "0",
                "--metrics-server-port", "0", "--staticnode", publisher.multiaddr() + "," + receiver.multiaddr(),
                "--relay-rpc-timeout", RPC_READ_TIMEOUT.toMillis() + "ms", "--peer-queue-messages", "256",
                "--peer-queue-size", "2MiB", "--peer-max-drops", "20", "--connection-grace-period", "2s",
                "--websocket-secure-support", "--websocket-port", String.valueOf(wssPort),
                "--websocket-secure-cert-path", cert.certificate().toString(),
                "--websocket-secure-key-path", cert.privateKey().toString());
    }

    private static String metricLines(Http metrics, String name) {
        return metrics.get("/metrics").body().lines().filter(l -> l.startsWith(name)).toList().toString();
    }

    private static boolean inMesh(WakuNode honest, NodeProcess target) {
        return honest.relay().mesh().getOrDefault(TOPIC, List.of()).stream().anyMatch(p -> p.toString().equals(target.peerId()));
    }

    private static void publish(WakuNode publisher, AtomicBoolean running, List<String> published, List<String> problems) {
        Random random = new Random(SEED);
        int i = 0;
        while (running.get()) {
            byte[] payload = new byte[2_000 + random.nextInt(18_000)];
            random.nextBytes(payload);
            WakuMessage message = WakuMessage.newBuilder().setPayload(ByteString.copyFrom(payload)).setContentTopic(CONTENT)
                    .setTimestamp(WakuNode.nowNanos()).setMeta(ByteString.copyFromUtf8("honest " + i++)).build();
            try {
                published.add(publisher.relay().publish(TOPIC, message).block(Duration.ofSeconds(10)).hash().toHex());
                Thread.sleep(50);
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                problems.add("publishing: " + e);
            }
        }
    }

    private static int stored(Http rest, List<String> hashes) {
        int found = 0;
        for (int i = 0; i < hashes.size(); i += 20) {
            String query = "/store/v3/messages?pageSize=20&includeData=false&hashes="
                    + String.join(",", hashes.subList(i, Math.min(hashes.size(), i + 20)));
            found += rest.get(query).json().get("messages").size();
        }
        return found;
    }

    /**
     * The node's heap, Netty's direct memory (its pool's chunks) and the direct buffers handed out of them, after a
     * full GC, which jcmd asks of the node's JVM.
     */
    record Memory(double heap, double direct, double buffers) {
        static Memory afterGc(NodeProcess node, Http metrics) throws IOException, InterruptedException {
            Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
            for (int i = 0; i < 2; i++) {
                Process gc = new ProcessBuilder(jcmd.toString(), String.valueOf(node.pid()), "GC.run")
                        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
                assertThat(gc.waitFor(30, TimeUnit.SECONDS)).as("jcmd GC.run finished").isTrue();
            }
            String exposition = metrics.get("/metrics").body();
            NodeMemory.Sample sample = NodeMemory.Sample.of(exposition);
            return new Memory(sample.heap(), sample.direct(), Http.metric(exposition, "waku_netty_direct_buffers_bytes"));
        }

        @Override
        public String toString() {
            return String.format("heap %.1f MiB, Netty direct %.1f MiB (buffers handed out %.2f MiB)", heap / MIB,
                    direct / MIB, buffers / MIB);
        }
    }
}
