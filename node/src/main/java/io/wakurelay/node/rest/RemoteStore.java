package io.wakurelay.node.rest;

import io.wakurelay.archive.StoreQuery;
import io.wakurelay.archive.StoreResponse;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import reactor.core.publisher.Mono;

/**
 * Another node's store, asked over {@code /vac/waku/store-query/3.0.0} (REST's {@code peerAddr}); the node's
 * {@code StoreClient} is one. Errors with {@code RemoteStoreException} carrying the status to report.
 */
@FunctionalInterface
public interface RemoteStore {
    Mono<StoreResponse> query(Multiaddr peer, StoreQuery query, String requestId);
}
