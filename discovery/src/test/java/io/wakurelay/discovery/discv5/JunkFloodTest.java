package io.wakurelay.discovery.discv5;

import static org.assertj.core.api.Assertions.assertThat;

import io.wakurelay.discovery.discv5.Discv5Metrics.Drop;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Issue 43's N3: junk discv5 packets from 512 UDP ports of one address, each of a new node id, at 4,000 packets a
 * second. Each asks for a WHOAREYOU challenge; when every one was answered, the challenges of honest nodes were pushed
 * out of the table before their handshakes came back over a slow path. Honest nodes ping the target through a
 * {@link UdpDelayProxy} that holds each datagram 100 ms (a 200 ms round trip on loopback).
 */
@Tag("slow")
class JunkFloodTest {
    private static final int PORTS = 512;
    private static final int PACKETS_PER_SECOND = 4_000;
    private static final int HONEST = 10;
    private static final long DELAY_MILLIS = 100;

    private static String drops(LocalDiscv5Node node) {
        StringBuilder out = new StringBuilder();
        for (Drop drop : Drop.values()) {
            out.append(drop.name().toLowerCase(java.util.Locale.ROOT)).append('=')
                    .append((long) node.metrics.droppedCount(drop)).append(' ');
        }
        return out.toString().trim();
    }

    @Test
    void honestHandshakesOverASlowPathSucceedWhileOneAddressSendsJunkFromFiveHundredPorts() throws Exception {
        try (LocalDiscv5Node target = new LocalDiscv5Node(List.of());
             UdpDelayProxy path = new UdpDelayProxy(InetAddress.getByName("127.0.0.3"), target.service.localAddress(),
                     DELAY_MILLIS)) {
            NodeEntry viaSlowPath = new NodeEntry(target.record(), target.node().id(), path.address());
            // the JVM's first handshake (class loading, the JIT), before the flood
            try (LocalDiscv5Node warmUp = new LocalDiscv5Node(List.of())) {
                warmUp.service.ping(viaSlowPath).get(10, TimeUnit.SECONDS);
            }
            try (Discv5JunkSender junk = new Discv5JunkSender(InetAddress.getByName("127.0.0.2"), PORTS,
                    target.service.localAddress(), target.node().id(), PACKETS_PER_SECOND, 43)) {
                Thread.sleep(1_000); // the flood is under way: with every packet answered, the table turns over
                duringTheFlood(target, viaSlowPath, junk);
            }
        }
    }

    /** Ten honest nodes ping the target over the slow path one after the other, each with a handshake. */
    private static void duringTheFlood(LocalDiscv5Node target, NodeEntry viaSlowPath, Discv5JunkSender junk)
            throws Exception {
        long start = System.nanoTime();
        long sentBefore = junk.sent();
        int succeeded = 0;
        for (int i = 0; i < HONEST; i++) {
            // a patient initiator: on a loaded machine its own loop may be late; the target's bounds are what is tested
            try (LocalDiscv5Node honest = new LocalDiscv5Node(List.of(),
                    c -> c.toBuilder().requestTimeout(Duration.ofSeconds(3)).build())) {
                long pinged = System.nanoTime();
                try {
                    honest.service.ping(viaSlowPath).get(5, TimeUnit.SECONDS);
                    succeeded++;
                } catch (ExecutionException | TimeoutException e) {
                    System.out.println("honest handshake " + i + " failed: " + e.getCause());
                }
                System.out.printf("honest handshake %d: %d ms; the target's drops: %s%n", i,
                        (System.nanoTime() - pinged) / 1_000_000, drops(target));
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        double rate = (junk.sent() - sentBefore) / seconds;
        double whoareyous = target.sent("whoareyou");
        System.out.printf("N3: %d of %d honest handshakes over a %d ms round trip; junk %,d packets at %,.0f/s from "
                + "%d ports; the target sent %,.0f WHOAREYOUs and dropped %,.0f packets by their source's rate%n",
                succeeded, HONEST, 2 * DELAY_MILLIS, junk.sent(), rate, PORTS, whoareyous,
                target.metrics.droppedCount(Drop.RATE_LIMITED));
        assertThat(succeeded).as("honest handshakes that succeeded during the flood").isEqualTo(HONEST);
        assertThat(target.metrics.droppedCount(Drop.UNSOLICITED)).as("handshakes whose challenge was gone").isZero();
        // on a loaded machine the sender falls behind its pace; half of it is still 16 times the source's budget
        assertThat(rate).as("the flood's rate while honest nodes shook hands").isGreaterThan(PACKETS_PER_SECOND / 2.0);
    }
}
