package io.wakurelay.services;

import io.wakurelay.discovery.peers.PeerRecords;
import io.wakurelay.testkit.Closer;
import io.wakurelay.testkit.Eventually;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class PeerExchangeLoopTest {
    @RegisterExtension
    final Closer closer = new Closer();

    @Test
    void theLoopAsksAtStartAndAgainEachIntervalSoItFindsPeersThatCameLater() {
        PxPeer server = closer.keep(new PxPeer(1));
        PxPeer asking = closer.keep(new PxPeer(2));
        PxPeer first = closer.keep(new PxPeer(3));
        PxPeer later = closer.keep(new PxPeer(4));
        PeerRecords served = new PeerRecords(10);
        server.connectTo(first);
        served.offer(first.record(0));
        closer.keep(PeerExchangeService.start(PeerExchangeConfig.DEFAULTS, server.host, served, 0, server.registry));
        PeerRecords kept = new PeerRecords(10);
        PeerExchangeClient client = closer.keep(PeerExchangeClient.start(PeerExchangeClientConfig.builder()
                .interval(Duration.ofMillis(300)).build(), asking.host, kept, 0, asking.registry));

        PeerExchangeLoop loop = closer.keep(PeerExchangeLoop.start(client, server.address()));
        Eventually.until(() -> kept.get(first.host.peerId()).isPresent(), () -> "the first round found nothing");
        server.connectTo(later);
        served.offer(later.record(0));
        Eventually.until(() -> kept.get(later.host.peerId()).isPresent(), () -> "no later round found the new peer");

        loop.close();
        double asked = server.registry.get("waku.service.requests").tag("state", "served").counter().count();
        assertThat(asked).isGreaterThanOrEqualTo(2);
    }
}
