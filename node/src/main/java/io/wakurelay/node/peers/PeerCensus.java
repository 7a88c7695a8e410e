package io.wakurelay.node.peers;

import io.wakurelay.p2p.Host;
import io.wakurelay.p2p.PeerRecord;
import io.wakurelay.p2p.connection.Connection;
import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.relay.Relay;
import io.wakurelay.relay.RelayPeer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The host's connections counted as nwaku's peer manager counts them: a relay peer is one the relay has streams with
 * or whose identify names {@value #RELAY}; a service peer is one identified without it (it only uses store, filter,
 * lightpush or peer exchange). An outbound connection not identified yet counts as relay, so that a round does not
 * dial past the target while identify is under way; an inbound one not identified yet counts as neither.
 *
 * @param inRelayPrunable  inbound relay connections that are not static, newest first
 * @param servicePrunable  inbound service connections that are not static, newest first
 */
record PeerCensus(int inRelay, int outRelay, int service, int total, List<Connection> inRelayPrunable,
                  List<Connection> servicePrunable) {
    static final String RELAY = "/vac/waku/relay/2.0.0";

    /**
     * @param relay   null on a node without relay
     * @param since   orders connections, newest first
     * @param closing connections being closed by the pruner: not counted
     */
    static PeerCensus of(Host host, Relay relay, ConnectedSince since, Predicate<Connection> closing) {
        Set<PeerId> relayStreams = new HashSet<>();
        if (relay != null) {
            for (RelayPeer p : relay.peers()) {
                relayStreams.add(p.peerId());
            }
        }
        int inRelay = 0;
        int outRelay = 0;
        int service = 0;
        int total = 0;
        List<Connection> inRelayPrunable = new ArrayList<>();
        List<Connection> servicePrunable = new ArrayList<>();
        for (Connection c : host.connections()) {
            if (!c.isOpen() || closing.test(c)) {
                continue;
            }
            total++;
            Optional<Set<String>> protocols = host.peer(c.remotePeer()).map(PeerRecord::protocols)
                    .filter(p -> !p.isEmpty());
            boolean isRelay = relayStreams.contains(c.remotePeer()) || protocols.map(p -> p.contains(RELAY)).orElse(false);
            boolean prunable = !c.isOutbound() && !host.isStaticConnection(c);
            if (isRelay) {
                if (c.isOutbound()) {
                    outRelay++;
                } else {
                    inRelay++;
                    if (prunable) {
                        inRelayPrunable.add(c);
                    }
                }
            } else if (protocols.isPresent()) {
                service++;
                if (prunable) {
                    servicePrunable.add(c);
                }
            } else if (c.isOutbound()) {
                outRelay++; // identify under way: counted as the relay peer it was most likely dialled as
            }
        }
        inRelayPrunable.sort(since.newestFirst());
        servicePrunable.sort(since.newestFirst());
        return new PeerCensus(inRelay, outRelay, service, total, inRelayPrunable, servicePrunable);
    }
}
