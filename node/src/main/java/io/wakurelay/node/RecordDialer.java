package io.wakurelay.node;

import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.discovery.peers.PeerRecords;
import io.wakurelay.p2p.Host;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.time.Duration;
import java.util.List;

/**
 * Reaches the peer a discovered record names, as DNS discovery and discv5 both do: its TCP and WebSocket addresses
 * are dialled in turn until one connects, within {@link #DIAL_TIMEOUT} in all, and the record of a peer then
 * connected is kept for peer exchange ({@link PeerRecords}) and its origin noted ({@link PeerOrigins}).
 */
final class RecordDialer {
    static final Duration DIAL_TIMEOUT = Duration.ofSeconds(10);
    private static final Logger log = LoggerFactory.getLogger(RecordDialer.class);

    private final Host host;
    private final PeerRecords records;
    private final String source;
    private final PeerOrigins origins;
    private final String origin;

    /**
     * @param source the discovery, as its logs name it ("DNS discovery", "discv5")
     * @param origin nwaku's name for it ({@link PeerOrigins#DNS}, {@link PeerOrigins#DISCV5})
     */
    RecordDialer(Host host, PeerRecords records, String source, PeerOrigins origins, String origin) {
        this.host = host;
        this.records = records;
        this.source = source;
        this.origins = origins;
        this.origin = origin;
    }

    /** Whether the record's peer is connected once dialled; its record is then kept. */
    Mono<Boolean> connect(Enr record) {
        List<Multiaddr> addresses = record.dialAddresses().stream().filter(a -> a.isTcp() || a.isWebSocket()).toList();
        return Flux.fromIterable(addresses)
                .concatMap(address -> host.dial(address).onErrorResume(e -> {
                    log.debug("{}: cannot dial {}: {}", source, address, e.toString());
                    return Mono.empty();
                }), 1)
                .next()
                .timeout(DIAL_TIMEOUT, Mono.empty())
                .map(connection -> {
                    records.offer(record);
                    origins.found(record.peerId(), origin);
                    return true;
                })
                .defaultIfEmpty(false);
    }
}
