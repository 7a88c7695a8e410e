package io.wakurelay.discovery.peerexchange;

import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.discovery.peers.PeerRecords;
import io.wakurelay.p2p.Host;
import io.wakurelay.p2p.crypto.PeerId;

import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Predicate;

/**
 * What the peer exchange server (services' {@code PeerExchangeService}) answers with (rfc-index core/34): a random
 * sample (reservoir sampling, as nwaku) of the records in the cache ({@link PeerRecords}) of peers this node is
 * connected to now, of its own cluster (or of none named), the requester's own record left out.
 *
 * <p>"Connected now" is this node's proof that the record's addresses reach a live node of the network: nwaku
 * serves the records discv5 found, whether or not it reached them (ADR 0078).
 */
public final class ServedRecords {
    private final PeerRecords records;
    private final Predicate<PeerId> connected;
    private final int clusterId;
    private final SplittableRandom random = new SplittableRandom();

    ServedRecords(PeerRecords records, Predicate<PeerId> connected, int clusterId) {
        this.records = records;
        this.connected = connected;
        this.clusterId = clusterId;
    }

    /** The records of {@code records} whose peers {@code host} is connected to now. */
    public static ServedRecords of(PeerRecords records, Host host, int clusterId) {
        return new ServedRecords(records, p -> host.connection(p).isPresent(), clusterId);
    }

    /** Up to {@code max} records for {@code requester}, each its RLP encoding. */
    public List<byte[]> recordsFor(PeerId requester, int max) {
        List<Enr> chosen;
        synchronized (random) {
            chosen = records.sample(max, r -> servable(r, requester), random);
        }
        return chosen.stream().map(Enr::encoded).toList();
    }

    private boolean servable(Enr record, PeerId requester) {
        PeerId peer = record.peerId();
        return !peer.equals(requester) && connected.test(peer) && PeerRecords.ofCluster(record, clusterId);
    }
}
