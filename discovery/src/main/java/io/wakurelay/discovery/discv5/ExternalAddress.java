package io.wakurelay.discovery.discv5;

import io.wakurelay.discovery.enr.Enr;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Learns our external address from the PONGs that answer our PINGs ({@link AddressVotes}) and, with
 * {@code --discv5-enr-auto-update}, has our record changed when the majority names another address than the
 * record's {@code ip}/{@code udp} (or {@code ip6}/{@code udp6}), as nim-eth's {@code ipMajorityLoop} does; nim-eth
 * looks at the votes every 5 minutes, this at every vote, so a change is seen at the PONG that makes it. Without the
 * option the new address is logged, once per address. Runs on the service's loop.
 */
final class ExternalAddress {
    private static final Logger log = LoggerFactory.getLogger(ExternalAddress.class);

    private final AddressVotes votes;
    private final boolean autoUpdate;
    private final Discv5Metrics metrics;
    private volatile Consumer<InetSocketAddress> listener = address -> { };
    private InetSocketAddress reported;
    private volatile int held; // votes.size(), written on the service's loop, read by the gauge

    ExternalAddress(Discv5Config config, Discv5Metrics metrics) {
        this.votes = new AddressVotes(config.addressVoteThreshold(), Discv5Config.ADDRESS_VOTES);
        this.autoUpdate = config.enrAutoUpdate();
        this.metrics = metrics;
    }

    void listen(Consumer<InetSocketAddress> update) {
        listener = update;
    }

    /** A PONG of node {@code nodeId} to our PING; {@code ours} is our record now. */
    void vote(byte[] nodeId, Message.Pong pong, Enr ours) {
        InetSocketAddress seen;
        try {
            seen = new InetSocketAddress(InetAddress.getByAddress(pong.recipientIp()), pong.recipientPort());
        } catch (UnknownHostException e) {
            return; // not 4 or 16 bytes: the message would not have decoded
        }
        if (pong.recipientPort() < 1 || pong.recipientPort() > 0xffff) {
            return;
        }
        long now = System.nanoTime();
        votes.add(nodeId, seen, now);
        Optional<InetSocketAddress> majority = votes.majority(now);
        held = votes.size();
        if (majority.isEmpty() || majority.get().equals(NodeEntry.endpoint(ours).orElse(null))
                || majority.get().equals(reported)) {
            return;
        }
        reported = majority.get();
        if (!autoUpdate) {
            log.atWarn().addKeyValue("address", String.valueOf(majority.get()))
                    .addKeyValue("recordAddress", NodeEntry.endpoint(ours).map(Object::toString).orElse("none"))
                    .log("discv5: the nodes we ping see us at another address than our record's; "
                            + "--discv5-enr-auto-update is off");
            return;
        }
        log.atInfo().addKeyValue("address", String.valueOf(majority.get()))
                .addKeyValue("recordAddress", NodeEntry.endpoint(ours).map(Object::toString).orElse("none"))
                .log("discv5: the nodes we ping see us at another address; updating our record");
        listener.accept(majority.get());
        metrics.enrAutoUpdate();
    }

    /** Votes held after the last PONG (expired ones dropped then). */
    int votes() {
        return held;
    }
}
