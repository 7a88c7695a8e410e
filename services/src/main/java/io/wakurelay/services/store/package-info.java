/**
 * Store v3 (rfc-index core/13) and the node's one Store door, in flow order:
 * <ul>
 *   <li>{@link io.wakurelay.services.store.StoreQueries}: every Store query, REST's and Store v3's, opens its page
 *       here, under {@link io.wakurelay.services.store.StoreLimits} (query slots, page bytes), as an
 *       {@link io.wakurelay.services.store.OpenQuery} read as it is written out, or is refused with
 *       {@link io.wakurelay.services.store.StoreBusyException} (429);</li>
 *   <li>the server: {@link io.wakurelay.services.store.StoreService} and
 *       {@link io.wakurelay.services.store.StoreServiceConfig}; {@code StoreExchange} (decode, validate with the
 *       archive's {@code StoreQuery}, open the page on the bounded elastic scheduler, answer);
 *       {@code StorePageEncoder} (the page encoded as it is read, cut to the response limit); {@code StoreCodec}
 *       (the fields); {@code StoreStatus}, {@code StoreMetrics};</li>
 *   <li>the client: {@link io.wakurelay.services.store.StoreClient} and
 *       {@link io.wakurelay.services.store.StoreClientConfig}; {@code StoreClientExchange} (a {@code ClientExchange});
 *       {@link io.wakurelay.services.store.RemoteStoreException} (nwaku's statuses and words).</li>
 * </ul>
 */
package io.wakurelay.services.store;
