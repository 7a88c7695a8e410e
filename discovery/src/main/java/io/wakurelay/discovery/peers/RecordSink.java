package io.wakurelay.discovery.peers;

import io.wakurelay.discovery.enr.Enr;

import java.util.Collection;

/**
 * Where the finders put what they find: DNS discovery, discv5 and peer exchange offer their records here and dial
 * nothing themselves. The node's peer manager implements it and alone dials (ADR 0074); it tells discovery back which
 * offered peers it connected ({@code io.wakurelay.discovery.Discovery#connected}).
 */
@FunctionalInterface
public interface RecordSink {
    /**
     * Takes records {@code origin} found. The finder has already dropped this node's own record and records of
     * another cluster (and, for discv5, of other shards); the sink judges addresses and keeps what it can bound.
     * Called on the finder's thread; must not block.
     */
    void offer(Collection<Enr> records, Origin origin);
}
