package io.wakurelay.discovery.discv5;

import io.wakurelay.discovery.enr.Enr;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The honest side of issue 43's N3 for a node-level test (the hostile-peer fuzzer): a discv5 node of its own, made
 * anew for each ping, so that every ping starts with a handshake (a WHOAREYOU challenge the target must still hold when
 * the handshake comes back), which is what a flood of junk could crowd out.
 */
public final class HonestDiscv5Pings {
    private HonestDiscv5Pings() {
    }

    /**
     * Whether a fresh node's ping of {@code target} (its record: node id and UDP endpoint) is answered within
     * {@code timeout}, handshake included.
     */
    public static boolean answered(Enr target, Duration timeout) throws InterruptedException {
        NodeEntry entry = NodeEntry.of(target).orElseThrow(() -> new IllegalArgumentException(
                "the record names no UDP endpoint: " + target.text()));
        try (LocalDiscv5Node honest = new LocalDiscv5Node(List.of(), c -> c.toBuilder().requestTimeout(timeout).build())) {
            honest.service.ping(entry).get(timeout.toMillis() + 1_000, TimeUnit.MILLISECONDS);
            return true;
        } catch (ExecutionException | TimeoutException e) {
            return false;
        }
    }
}
