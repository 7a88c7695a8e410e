/**
 * Waku's request-response services over the p2p host (docs/services.md): the core every protocol's package builds on,
 * in flow order:
 * <ul>
 *   <li>{@link io.wakurelay.services.ServiceLifecycle}: the start and shutdown skeleton of every service and client
 *       (its {@link io.wakurelay.services.Meters}, the protocols it serves, the closing flag, one shutdown);</li>
 *   <li>{@link io.wakurelay.services.RateLimit} and {@link io.wakurelay.services.PeerRateLimiter}: the per-peer
 *       request rate (429 past it), nwaku's {@code volume/period} on the project's one token bucket
 *       ({@code io.wakurelay.p2p.limits});</li>
 *   <li>{@link io.wakurelay.services.ServerExchange}: one request, one response, then the end of this side, on an
 *       inbound stream; with {@code OneMessageReader} (the length prefix judged before the body is buffered);</li>
 *   <li>{@link io.wakurelay.services.ClientExchange}: the client side every service client shares;
 *       {@link io.wakurelay.services.Failures}: what a failed dial or stream is called;</li>
 *   <li>{@link io.wakurelay.services.ServiceMetrics}: the {@code waku_service_*} meters;
 *       {@link io.wakurelay.services.Durations}: the configs' validation;</li>
 * </ul>
 * Each protocol has its package, which uses this one and no other protocol's: {@code store} (Store v3 server and
 * client, and the node's one Store door), {@code lightpush} (lightpush v3 server and client, the legacy route's
 * terms), {@code filter} (filter v2 server and client), {@code peerexchange} (peer exchange's wire, server and
 * client). The generated protobuf types are in
 * {@code io.wakurelay.services.proto}.
 */
package io.wakurelay.services;
