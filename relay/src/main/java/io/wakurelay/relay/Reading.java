package io.wakurelay.relay;

/**
 * A value the relay's gauges read when scraped rather than being told ({@link RouterEvents#reading}): the sizes of the
 * router's caches and queues, read under the router's lock where it guards them. Each has its meter's name and
 * description (docs/metrics.md); a {@link #counter} only grows.
 */
enum Reading {
    SEEN_CACHE_ENTRIES("waku.relay.seen.cache.entries", false, "message ids held by the seen cache"),
    SEEN_CACHE_EVICTIONS("waku.relay.seen.cache.evictions", true,
            "message ids forgotten for room before their TTL ran out (the cache is too small for the rate)"),
    MESSAGE_CACHE_BYTES("waku.relay.message.cache.bytes", false, "bytes of recent messages held to answer IWANT"),
    MESSAGE_CACHE_EVICTIONS("waku.relay.message.cache.evictions", true,
            "messages dropped from the message cache before their history window ended (bytes bound)"),
    INBOUND_PENDING("waku.relay.inbound.pending", false,
            "accepted envelopes handed to the local consumer and not yet taken (bounded; reading pauses when full)"),
    PEERS("libp2p.pubsub.peers", false, "peers with a relay stream"),
    TOPICS("libp2p.pubsub.topics", false, "pubsub topics this node subscribes to"),
    PEER_QUEUE_BYTES("waku.relay.peer.queue.bytes", false,
            "bytes written to relay peers and not yet taken by their connections, all peers together"),
    REJECTED_IDS("waku.relay.rejected.ids", false,
            "ids of recently rejected messages kept so that later copies are rejected too (at most "
                    + RejectedMessages.CAPACITY + ")"),
    IDONTWANT_IDS("waku.relay.idontwant.ids", false,
            "IDONTWANT message ids held for the connected peers (bounded per peer)"),
    IWANT_PROMISES("waku.relay.iwant.promises", false,
            "IHAVE promises awaited: messages asked for with IWANT and not yet arrived"),
    RETAINED_SCORES("waku.relay.retained.scores", false,
            "scores of disconnected peers remembered so that reconnecting does not wash them"),
    INBOUND_BUFFERED_BYTES("waku.relay.inbound.buffered.bytes", false,
            "bytes read from peers' relay streams and not yet handed to the router: incomplete RPCs (bounded by the "
                    + "max RPC size and the read timeout) and RPCs waiting while reading is paused"),
    VALIDATION_QUEUED("waku.relay.validation.queued", false,
            "messages waiting for a validation thread (with a validator installed)"),
    VALIDATION_IN_FLIGHT("waku.relay.validation.in.flight", false,
            "messages being verified now (at most the validation threads)"),
    VALIDATION_HELD_BYTES("waku.relay.validation.held.bytes", false,
            "bytes the messages waiting for verification or being verified keep alive (the RPCs they arrived in)");

    private final String meterName;
    private final boolean counter;
    private final String description;

    Reading(String meterName, boolean counter, String description) {
        this.meterName = meterName;
        this.counter = counter;
        this.description = description;
    }

    /** The meter's name, Micrometer's dotted form. */
    String meterName() {
        return meterName;
    }

    /** True for a count that only grows (a function counter), false for a gauge. */
    boolean counter() {
        return counter;
    }

    String description() {
        return description;
    }
}
