package io.wakurelay.node;

import io.wakurelay.testkit.Eventually;
import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.ByteString;
import io.wakurelay.protocol.MessageHasher;
import io.wakurelay.protocol.PathCounters;
import io.wakurelay.protocol.proto.WakuMessage;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Faults of whole node processes: {@code kill -9} of an archiving node in the middle of a load, restarted on the
 * same data directory, still holds every message it had acknowledged; a peer killed and restarted mid-stream is
 * redialled and traffic resumes.
 *
 * <p>"Acknowledged" means committed to the archive (in the RocksDB WAL, as one atomic batch), which a client sees
 * as the node's own Store query returning the message; a peer-port publish gets no other acknowledgement, and a
 * REST publish's 200 only says the message was accepted and queued, before the archive commit.
 */
@Tag("process")
@Tag("slow")
class ProcessFaultsTest {
    private static final String TOPIC = Publisher.TOPIC;
    private static final List<String> JVM = List.of("-Xmx192m", "-XX:+ExitOnOutOfMemoryError", "-Dio.netty.leakDetection.level=paranoid");
    private static final Duration STARTUP = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    private static List<String> args(Path data, int tcpPort, String... extra) {
        List<String> args = new ArrayList<>(List.of("--data-dir", data.toString(), "--listen-address", "127.0.0.1",
                "--tcp-port", String.valueOf(tcpPort), "--rest-port", "0", "--metrics-server-port", "0"));
        args.addAll(List.of(extra));
        return args;
    }

    /**
     * With {@code --store-durability flush} the Store answers only for what a completed flush wrote, so "found by the
     * Store" still means acknowledged, and the batches written after the last flush are lost whole.
     */
    @ParameterizedTest
    @ValueSource(strings = {"wal", "flush"})
    void killDashNineDuringALoadLosesNoAcknowledgedMessage(String durability) throws Exception {
        Path data = dir.resolve("data");
        List<String> sent;
        List<String> attempted;
        Set<String> acknowledged = ConcurrentHashMap.newKeySet();
        List<String> restOk = new ArrayList<>();
        List<String> restAttempted = new ArrayList<>();
        try (NodeProcess node = NodeProcess.start(JVM, args(data, 0, "--store-durability", durability), STARTUP, dir.resolve("node.log"))) {
            Http rest = new Http(node.restAddress());
            AtomicBoolean running = new AtomicBoolean(true);
            Publisher publisher = new Publisher(node.multiaddr(), "loader",
                    Integer.MAX_VALUE, 5_000, 50_000, 11);
            // acknowledgements: the node's own store answers for what was sent and not yet seen there
            Thread acks = new Thread(() -> {
                while (running.get()) {
                    List<String> open = new ArrayList<>(publisher.sent());
                    open.removeAll(acknowledged);
                    for (int i = 0; i < open.size() && running.get(); i += 100) {
                        try {
                            JsonNode reply = rest.get("/store/v3/messages?pageSize=100&hashes="
                                    + String.join(",", open.subList(i, Math.min(open.size(), i + 100)))).json();
                            reply.get("messages").forEach(m -> acknowledged.add(m.get("messageHash").asText()));
                        } catch (RuntimeException | AssertionError e) {
                            return; // killed
                        }
                    }
                }
            }, "acks");
            // REST publishes beside it: a 200 is counted, and checked after the restart without expectations
            Thread restLoad = new Thread(() -> {
                MessageHasher hasher = new MessageHasher(new PathCounters());
                for (int i = 0; running.get(); i++) {
                    WakuMessage m = WakuMessage.newBuilder().setPayload(ByteString.copyFromUtf8("rest " + i)).setContentTopic("/app/1/rest/proto")
                            .setTimestamp(WakuNode.nowNanos()).build();
                    String hash = hasher.hash(TOPIC, m).toHex();
                    synchronized (restOk) {
                        restAttempted.add(hash);
                    }
                    try {
                        Http.Reply reply = rest.post("/relay/v1/messages/" + Http.topic(TOPIC), "{\"payload\":\""
                                + Base64.getEncoder().encodeToString(m.getPayload().toByteArray()) + "\",\"contentTopic\":\"/app/1/rest/proto\",\"timestamp\":"
                                + m.getTimestamp() + "}");
                        if (reply.status() == 200) {
                            synchronized (restOk) {
                                restOk.add(hash);
                            }
                        }
                    } catch (RuntimeException | AssertionError e) {
                        return;
                    }
                }
            }, "rest-load");
            acks.start();
            restLoad.start();
            Eventually.until("500 messages are acknowledged", Duration.ofSeconds(60), () -> acknowledged.size() >= 500);
            assertThat(publisher.failure()).isNull();

            node.kill(); // SIGKILL, mid-stream
            running.set(false);
            acks.join(10_000);
            restLoad.join(10_000);
            publisher.close();
            sent = new ArrayList<>(publisher.sent());
            attempted = new ArrayList<>(publisher.attempted());
        }
        assertThat(sent.size()).as("the load was still going when the node died").isGreaterThan(acknowledged.size());

        try (NodeProcess restarted = NodeProcess.start(JVM, args(data, 0, "--store-durability", durability), STARTUP,
                dir.resolve("restarted.log"))) {
            Http rest = new Http(restarted.restAddress());
            Set<String> present = new HashSet<>();
            for (int i = 0; i < attempted.size(); i += 100) {
                rest.get("/store/v3/messages?pageSize=100&hashes=" + String.join(",", attempted.subList(i, Math.min(attempted.size(), i + 100))))
                        .json().get("messages").forEach(m -> present.add(m.get("messageHash").asText()));
            }
            assertThat(present).as("every acknowledged message survived kill -9").containsAll(acknowledged);
            int restPresent;
            int restOkPresent;
            synchronized (restOk) {
                restPresent = ArchivedMessages.stored(rest, restAttempted); // a request cut by the kill may have been stored
                restOkPresent = ArchivedMessages.stored(rest, restOk);
            }
            String metrics = new Http(restarted.metricsAddress()).get("/metrics").body();
            assertThat(Http.metric(metrics, "waku_archive_messages{type=\"stored\"}"))
                    .as("the archive's message counter, committed in the same batches, is exact after the crash")
                    .isEqualTo(present.size() + restPresent);
            assertThat(rest.get("/health").status()).isEqualTo(200);
            System.out.printf("ProcessFaultsTest: kill -9 mid-load, --store-durability " + durability + ": peer publisher wrote %d, %d acknowledged (seen in the store) before the kill, "
                            + "%d in the store after the restart; REST publishes answered 200: %d, in the store after the restart: %d%n",
                    sent.size(), acknowledged.size(), present.size(), restOk.size(), restOkPresent);
        }
    }

    @Test
    void aPeerKilledAndRestartedMidStreamIsRedialledAndTrafficResumes() throws Exception {
        int portA = freePort();
        Path dataA = dir.resolve("a");
        NodeProcess a = NodeProcess.start(JVM, args(dataA, portA), STARTUP, dir.resolve("a.log"));
        // A keeps its key (and so its peer id) in its data directory across the restart
        String staticA = a.multiaddr().toString();
        try (NodeProcess b = NodeProcess.start(JVM, args(dir.resolve("b"), 0, "--staticnode", staticA), STARTUP, dir.resolve("b.log"))) {
            Http metricsB = new Http(b.metricsAddress());
            Eventually.until("B is connected to A and relays with it", Duration.ofSeconds(30),
                    () -> Http.metric(metricsB.get("/metrics").body(), "libp2p_pubsub_peers") == 1);
            BlockingQueue<JsonNode> streamB = new Http(b.restAddress()).stream("/relay/v1/stream/" + Http.topic(TOPIC));

            List<String> before = publish(new Http(a.restAddress()), "before", 20);
            assertThat(receive(streamB, before)).as("B streams what A publishes").isTrue();

            a.kill();
            Eventually.until("B noticed", Duration.ofSeconds(30),
                    () -> Http.metric(metricsB.get("/metrics").body(), "libp2p_peers") == 0);
            a = NodeProcess.start(JVM, args(dataA, portA), STARTUP, dir.resolve("a-restarted.log"));
            Http metricsBAfter = metricsB;
            long restartedAt = System.nanoTime();
            Eventually.until("B redialled the restarted A", Duration.ofSeconds(90),
                    () -> Http.metric(metricsBAfter.get("/metrics").body(), "libp2p_pubsub_peers") == 1);
            long redialMillis = (System.nanoTime() - restartedAt) / 1_000_000;

            List<String> after = publish(new Http(a.restAddress()), "after", 20);
            assertThat(receive(streamB, after)).as("traffic resumed after the restart").isTrue();
            Eventually.until("B archived both runs", Duration.ofSeconds(30),
                    () -> ArchivedMessages.stored(new Http(b.restAddress()), concat(before, after)) == 40);
            System.out.printf("ProcessFaultsTest: peer killed and restarted: B redialled %d ms after A was up again; 20 + 20 messages streamed and archived%n",
                    redialMillis);
        } finally {
            a.close();
        }
    }

    private static List<String> concat(List<String> x, List<String> y) {
        List<String> all = new ArrayList<>(x);
        all.addAll(y);
        return all;
    }

    private static List<String> publish(Http rest, String label, int count) {
        MessageHasher hasher = new MessageHasher(new PathCounters());
        List<String> hashes = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            WakuMessage m = WakuMessage.newBuilder().setPayload(ByteString.copyFromUtf8(label + " " + i)).setContentTopic("/app/1/restart/proto")
                    .setTimestamp(WakuNode.nowNanos()).build();
            Http.Reply reply = rest.post("/relay/v1/messages/" + Http.topic(TOPIC), "{\"payload\":\"" + Base64.getEncoder().encodeToString(
                    m.getPayload().toByteArray()) + "\",\"contentTopic\":\"/app/1/restart/proto\",\"timestamp\":" + m.getTimestamp() + "}");
            assertThat(reply.status()).as(reply.body()).isEqualTo(200);
            hashes.add(hasher.hash(TOPIC, m).toHex());
        }
        return hashes;
    }

    private static boolean receive(BlockingQueue<JsonNode> stream, List<String> expected) throws InterruptedException {
        Set<String> missing = new HashSet<>(expected);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!missing.isEmpty() && System.nanoTime() < deadline) {
            JsonNode event = stream.poll(1, TimeUnit.SECONDS);
            if (event != null) {
                missing.remove(event.get("messageHash").asText());
            }
        }
        return missing.isEmpty();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        }
    }
}
