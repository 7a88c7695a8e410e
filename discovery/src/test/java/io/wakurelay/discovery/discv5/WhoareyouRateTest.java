package io.wakurelay.discovery.discv5;

import static org.assertj.core.api.Assertions.assertThat;

import io.wakurelay.discovery.discv5.Discv5Metrics.Drop;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Junk from many addresses, each within its own packet budget: together they ask for more WHOAREYOUs than the rate of
 * all of them, and the rest are dropped (counted) before any challenge is made.
 */
class WhoareyouRateTest {
    private static final int RATE = 20;

    /** Waits until the node has taken in every packet its socket held: its counts stand still for half a second. */
    private static void awaitQuiet(LocalDiscv5Node node) throws InterruptedException {
        double before = -1;
        double now = taken(node);
        while (now != before) {
            Thread.sleep(500);
            before = now;
            now = taken(node);
        }
    }

    private static double taken(LocalDiscv5Node node) {
        return node.registry.get("waku.discv5.packets.in").counters().stream().mapToDouble(c -> c.count()).sum()
                + node.metrics.droppedCount(Drop.RATE_LIMITED);
    }

    @Test
    void junkFromSixteenAddressesGetsAtMostTheWhoareyouRateOfAllSources() throws Exception {
        List<Discv5JunkSender> senders = new ArrayList<>();
        try (LocalDiscv5Node target = new LocalDiscv5Node(List.of(),
                c -> c.toBuilder().whoareyouPerSecond(RATE).build());
             LocalDiscv5Node honest = new LocalDiscv5Node(List.of())) {
            long start = System.nanoTime();
            try {
                for (int i = 0; i < 16; i++) {
                    senders.add(new Discv5JunkSender(InetAddress.getByName("127.0.0." + (10 + i)), 2,
                            target.service.localAddress(), target.node().id(), 100, i));
                }
                Thread.sleep(2_000);
            } finally {
                senders.forEach(Discv5JunkSender::close);
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            double whoareyous = target.sent("whoareyou");
            assertThat(whoareyous).as("WHOAREYOUs in %.1f s", seconds)
                    .isLessThanOrEqualTo(RATE * seconds + Discv5Config.whoareyouBurst(RATE) + 1);
            assertThat(target.metrics.droppedCount(Drop.WHOAREYOU_RATE)).isPositive();
            awaitQuiet(target); // what the socket had buffered is read, and the bucket fills again
            assertThat(honest.service.ping(target.node()).get(5, TimeUnit.SECONDS).enrSeq()).isEqualTo(1);
        }
    }
}
