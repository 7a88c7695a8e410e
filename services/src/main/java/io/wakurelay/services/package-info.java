/**
 * Waku's request-response services over the p2p host (docs/services.md), in flow order:
 * <ul>
 *   <li>{@link io.wakurelay.services.RateLimit}, {@code PeerRateLimiter}, {@link io.wakurelay.archive.QuerySlots}: the per-peer
 *       request rate (429 past it) and the queries-at-once limit of the store (503 past it);</li>
 *   <li>{@code ServerExchange}: one request, one response, then the end of this side, on an inbound stream; with
 *       {@code OneMessageReader} (the length prefix judged before the body is buffered);</li>
 *   <li>the node's one Store query service, for REST and Store v3 alike: {@link io.wakurelay.services.StoreQueries}
 *       under {@link io.wakurelay.services.StoreLimits} (query slots, page bytes), opening an
 *       {@link io.wakurelay.services.OpenQuery}, or refusing with {@link io.wakurelay.services.StoreBusyException};</li>
 *   <li>Store v3: {@link io.wakurelay.services.StoreService} and {@link io.wakurelay.services.StoreServiceConfig};
 *       {@code StoreExchange} (decode, validate with the archive's {@code StoreQuery}, query on a bounded
 *       scheduler, answer); {@code StoreCodec} (the fields, and the page cut to the response limit);
 *       {@code StoreStatus}, {@code StoreMetrics};</li>
 *   <li>the store client: {@link io.wakurelay.services.StoreClient}, {@link io.wakurelay.services.StoreClientConfig},
 *       {@code StoreClientExchange} (a {@code ClientExchange}, the client side every service client shares),
 *       {@link io.wakurelay.services.RemoteStoreException};</li>
 *   <li>lightpush v3: {@link io.wakurelay.services.LightpushService}, {@link io.wakurelay.services.LightpushConfig},
 *       {@code LightpushExchange} (publish through the relay), {@code LightpushStatus}, {@code LightpushMetrics};
 *       {@link io.wakurelay.services.LightpushOutcome}, {@link io.wakurelay.services.LegacyLightpushOutcome} (the
 *       legacy REST route's terms); the client {@link io.wakurelay.services.LightpushClient} (an edge node's
 *       {@code --lightpushnode}) with {@link io.wakurelay.services.LightpushClientConfig},
 *       {@code LightpushClientExchange} and {@code LightpushClientException};</li>
 *   <li>filter v2: {@link io.wakurelay.services.FilterService} and {@link io.wakurelay.services.FilterConfig};
 *       {@code FilterExchange} (subscribe, ping, unsubscribe); {@code FilterSubscriptions} and
 *       {@code FilterSubscriber} (who wants what, looked up without a lock per accepted message);
 *       {@code FilterPushFrame} (one {@code MessagePush} per message, shared); {@code FilterPushChannel} (one
 *       subscriber's push stream and its bound); {@code FilterRemoval}, {@code FilterStatus}, {@code FilterMetrics};</li>
 *   <li>the filter client ({@code --filternode}): {@link io.wakurelay.services.FilterClient} (subscribe, unsubscribe,
 *       ping, refresh and re-subscription) and {@link io.wakurelay.services.FilterClientConfig};
 *       {@code FilterClientExchange} (a {@code ClientExchange}); {@code FilterServicePeers} (the peers subscribed
 *       through, the only ones whose push streams are read); {@code FilterPushReceiver} (the pushes of one push
 *       stream); {@code FilterClientCriteria} (what is subscribed, bounded); failures as
 *       {@link io.wakurelay.services.FilterRequestException} with nwaku's kinds; {@code FilterClientMetrics};</li>
 *   <li>peer exchange's wire (rfc-index core/34; which records are served, and what becomes of those received, is
 *       discovery's): {@link io.wakurelay.services.PeerExchangeService} and
 *       {@link io.wakurelay.services.PeerExchangeConfig}; {@code PeerExchangeExchange} (the records its
 *       {@code RecordSource} gives); {@code PeerExchangeStatus}, {@code PeerExchangeMetrics}; the client
 *       {@link io.wakurelay.services.PeerExchangeClient} (one request, its records undecoded) with
 *       {@link io.wakurelay.services.PeerExchangeClientConfig}, {@code PeerExchangeClientExchange},
 *       {@link io.wakurelay.services.PeerExchangeException}, {@code PeerExchangeClientMetrics};</li>
 *   <li>{@code ServiceMetrics}, {@code Meters}: the {@code waku_service_*} meters and their removal at shutdown.</li>
 * </ul>
 * The generated protobuf types are in {@code io.wakurelay.services.proto}.
 */
package io.wakurelay.services;
