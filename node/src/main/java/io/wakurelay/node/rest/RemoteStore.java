package io.wakurelay.node.rest;

import io.wakurelay.archive.StoreQuery;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.services.store.OpenQuery;
import reactor.core.publisher.Mono;

/**
 * Another node's store, asked over {@code /vac/waku/store-query/3.0.0} (REST's {@code peerAddr}); the node's
 * {@code StoreClient} is one. The page holds one of the client's slots until it is closed. Errors with
 * {@code RemoteStoreException} carrying the status to report (429 when every slot is taken).
 */
@FunctionalInterface
public interface RemoteStore {
    Mono<OpenQuery> open(Multiaddr peer, StoreQuery query, String requestId);
}
