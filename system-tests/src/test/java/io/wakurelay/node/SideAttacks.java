package io.wakurelay.node;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.ByteString;
import io.wakurelay.discovery.discv5.Discv5JunkSender;
import io.wakurelay.discovery.discv5.HonestDiscv5Pings;
import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.protocol.proto.WakuMessage;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Issue 43's N3 and N4 beside the hostile-peer fuzzer's relay and p2p attackers, for its whole run.
 * <ul>
 *   <li>N3: {@link Discv5JunkSender} floods the target's discv5 port with packets that each ask for a challenge, from
 *       {@link #JUNK_PORTS} ports of one address at {@link #JUNK_RATE} a second, while a fresh honest discv5 node
 *       pings the target every {@link #PING_EVERY} ({@link HonestDiscv5Pings}, each ping with a handshake).</li>
 *   <li>N4: {@link ForgedFilterPusher} writes a forged {@code MessagePush} every {@link #FORGE_EVERY}, each under a
 *       new identity, to an edge node that takes the honest messages by filter from the target; the edge's REST is
 *       read as an app reads it, and no forged message may be among what it serves.</li>
 * </ul>
 * Seeded like the rest of the fuzzer.
 */
final class SideAttacks implements AutoCloseable {
    static final int JUNK_PORTS = 128;
    static final int JUNK_RATE = 2_000;
    static final Duration PING_EVERY = Duration.ofSeconds(1);
    static final Duration FORGE_EVERY = Duration.ofMillis(200);
    private static final String FORGED = "forged by the fuzzer ";

    private final Discv5JunkSender junk;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicInteger pings = new AtomicInteger();
    private final AtomicInteger answered = new AtomicInteger();
    private final AtomicInteger forged = new AtomicInteger();
    private final AtomicInteger honestServed = new AtomicInteger();
    private final AtomicInteger forgedServed = new AtomicInteger();
    private final List<Thread> threads;

    /**
     * @param targetRecord the target's record (its discv5 endpoint and node id)
     * @param edge         a node whose filter service node is the target, subscribed to {@code topic}/{@code content}
     *                     through its REST API
     */
    SideAttacks(Enr targetRecord, WakuNode edge, String topic, String content, long seed, Set<String> kindsSent)
            throws Exception {
        InetSocketAddress discv5 = new InetSocketAddress(targetRecord.ip4().orElseThrow(),
                targetRecord.udp().orElseThrow());
        this.junk = new Discv5JunkSender(InetAddress.getByName("127.0.0.60"), JUNK_PORTS, discv5,
                io.wakurelay.discovery.discv5.NodeEntry.of(targetRecord).orElseThrow().id(), JUNK_RATE, seed);
        kindsSent.add("DISCV5_JUNK");
        Thread pinger = new Thread(() -> pingWhileRunning(targetRecord), "honest-discv5-pings");
        Thread forger = new Thread(() -> forgeWhileRunning(edge, topic, content), "forged-filter-pushes");
        Thread reader = new Thread(() -> readWhileRunning(new Http(edge.restAddress()), content), "edge-app-reads");
        this.threads = List.of(pinger, forger, reader);
        threads.forEach(Thread::start);
    }

    private void pingWhileRunning(Enr target) {
        while (running.get()) {
            try {
                pings.incrementAndGet();
                if (HonestDiscv5Pings.answered(target, Duration.ofSeconds(5))) {
                    answered.incrementAndGet();
                }
                Thread.sleep(PING_EVERY.toMillis());
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void forgeWhileRunning(WakuNode edge, String topic, String content) {
        int i = 0;
        while (running.get()) {
            WakuMessage message = WakuMessage.newBuilder().setContentTopic(content).setTimestamp(WakuNode.nowNanos())
                    .setPayload(ByteString.copyFromUtf8(FORGED + i++)).build();
            try (ForgedFilterPusher pusher = new ForgedFilterPusher("127.0.0.61")) {
                pusher.push(edge.multiaddr(), topic, message, Duration.ofSeconds(5));
                forged.incrementAndGet();
                Thread.sleep(FORGE_EVERY.toMillis());
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                // the edge may refuse the connection itself: a push that does not get through is the point
            }
        }
    }

    /** Drains the edge's REST cache as an app polls it, noting which payloads were served. */
    private void readWhileRunning(Http rest, String content) {
        while (running.get()) {
            try {
                for (JsonNode message : rest.get("/filter/v2/messages/" + Http.topic(content)).json()) {
                    String payload = new String(Base64.getDecoder().decode(message.path("payload").asText()),
                            StandardCharsets.ISO_8859_1);
                    (payload.startsWith(FORGED) ? forgedServed : honestServed).incrementAndGet();
                }
                Thread.sleep(250);
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                // a poll that failed under load: the next one reads what it would have
            }
        }
    }

    int pings() {
        return pings.get();
    }

    int answered() {
        return answered.get();
    }

    long junkSent() {
        return junk.sent();
    }

    int forged() {
        return forged.get();
    }

    int honestServed() {
        return honestServed.get();
    }

    int forgedServed() {
        return forgedServed.get();
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        junk.close();
        for (Thread t : threads) {
            t.interrupt();
            t.join(15_000);
        }
    }

    @Override
    public String toString() {
        return String.format("N3: %d of %d honest discv5 pings answered while %,d junk packets came from %d ports; "
                        + "N4: %d forged pushes written, %d served by the edge, %d honest messages served",
                answered(), pings(), junkSent(), JUNK_PORTS, forged(), forgedServed(), honestServed());
    }
}
