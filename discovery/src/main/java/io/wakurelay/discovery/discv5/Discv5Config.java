package io.wakurelay.discovery.discv5;

import io.soabase.recordbuilder.core.RecordBuilder;
import io.wakurelay.discovery.enr.Enr;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;

/**
 * What a discv5 service binds and its bounds.
 *
 * @param bind                   the UDP address (nwaku's default port 9000)
 * @param bootstrap              records put in the table at start and pinged
 * @param sessions               session keys kept (least recently used go first)
 * @param challenges             WHOAREYOU challenges awaiting a handshake; one younger than the request timeout is
 *                               never pushed out by a newcomer (who then gets none): the defaults hold a request
 *                               timeout of {@code whoareyouPerSecond} and its burst (640 of 1,024), so that this does
 *                               not happen ({@link RecipientHandshakes})
 * @param pendingRequests        our requests awaiting an answer; a request past it fails at once
 * @param packetsPerSecond       per source (an IPv4 address or an IPv6 /64, whatever the port: {@link SourcePrefix}):
 *                               the packets taken in a second on average (a bucket of twice that absorbs bursts);
 *                               the rest are dropped before any decryption
 * @param rateLimitedSources     the sources whose rate is tracked (the least recently seen go first)
 * @param whoareyouPerSecond     WHOAREYOU challenges sent a second, all sources together (a bucket of a quarter of
 *                               that absorbs bursts); a packet that needs one past it is dropped
 * @param requestTimeout         an answer (or the whole of a NODES answer) must come within it, and again after a
 *                               handshake the request's WHOAREYOU asked for
 * @param livenessInterval       one table node is pinged every interval; a node that does not answer leaves
 * @param tableIpLimit           the most table entries (nodes and replacements) of one public IP address (nwaku's
 *                               {@code --discv5-table-ip-limit}, 10)
 * @param bucketIpLimit          the same in one bucket ({@code --discv5-bucket-ip-limit}, 2)
 * @param bitsPerHop             Kademlia's b ({@code --discv5-bits-per-hop}, 1): how finely the buckets far from us
 *                               are divided ({@link RoutingTable})
 * @param enrAutoUpdate          when the majority of PONGs names another address than our record's ip/udp, the
 *                               service's address listener is told, to update the record
 *                               ({@code --discv5-enr-auto-update}); off: the address is only logged
 * @param addressVoteThreshold   the votes (PONGs of distinct nodes) an address needs to be the majority (nim-eth's 10)
 */
@RecordBuilder
public record Discv5Config(InetSocketAddress bind, List<Enr> bootstrap, int sessions, int challenges,
        int pendingRequests, int packetsPerSecond, int rateLimitedSources, int whoareyouPerSecond,
        Duration requestTimeout,
        Duration livenessInterval, int tableIpLimit, int bucketIpLimit, int bitsPerHop, boolean enrAutoUpdate,
        int addressVoteThreshold) {

    public static final int DEFAULT_PORT = 9000;
    /** The most address votes kept (one per node; the oldest go first). */
    public static final int ADDRESS_VOTES = 256;

    public Discv5Config {
        bootstrap = List.copyOf(bootstrap);
        if (packetsPerSecond < 1 || rateLimitedSources < 1 || whoareyouPerSecond < 1) {
            throw new IllegalArgumentException("discv5's packet and WHOAREYOU rates and its rate-limited sources must "
                    + "be at least 1, were " + packetsPerSecond + ", " + whoareyouPerSecond + " and "
                    + rateLimitedSources);
        }
        if (challenges < 1) {
            throw new IllegalArgumentException("discv5's challenge table needs room for one, was " + challenges);
        }
        if (tableIpLimit < 1 || bucketIpLimit < 1) {
            throw new IllegalArgumentException("the discv5 IP limits must be at least 1, were " + tableIpLimit
                    + " (table) and " + bucketIpLimit + " (bucket)");
        }
        if (bitsPerHop < 1 || bitsPerHop > RoutingTable.MAX_BITS_PER_HOP) {
            throw new IllegalArgumentException("discv5's bits per hop must be 1.." + RoutingTable.MAX_BITS_PER_HOP
                    + ", was " + bitsPerHop);
        }
        if (addressVoteThreshold < 2 || addressVoteThreshold > ADDRESS_VOTES) {
            throw new IllegalArgumentException("the address vote threshold must be 2.." + ADDRESS_VOTES + ", was "
                    + addressVoteThreshold);
        }
    }

    public static Discv5Config defaults(InetSocketAddress bind, List<Enr> bootstrap) {
        return new Discv5Config(bind, bootstrap, 1024, 1024, 512, 50, 4096, 512, Duration.ofSeconds(1),
                Duration.ofSeconds(10), RoutingTable.DEFAULT_TABLE_IP_LIMIT, RoutingTable.DEFAULT_BUCKET_IP_LIMIT,
                RoutingTable.DEFAULT_BITS_PER_HOP, false, AddressVotes.DEFAULT_THRESHOLD);
    }

    /** The WHOAREYOUs that may leave at once, on top of the rate: a quarter of a second's worth, at least 1. */
    static double whoareyouBurst(int whoareyouPerSecond) {
        return Math.max(1, whoareyouPerSecond / 4.0);
    }

    public Discv5ConfigBuilder toBuilder() {
        return Discv5ConfigBuilder.builder(this);
    }
}
