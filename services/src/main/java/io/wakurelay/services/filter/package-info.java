/**
 * Filter v2 (rfc-index core/12), in flow order:
 * <ul>
 *   <li>the server: {@link io.wakurelay.services.filter.FilterService} and
 *       {@link io.wakurelay.services.filter.FilterConfig}; {@code FilterExchange} (subscribe, ping, unsubscribe);
 *       {@code FilterSubscriptions} and {@code FilterSubscriber} (who wants what, looked up without a lock per accepted
 *       message); {@code FilterPushFrame} (one {@code MessagePush} per message, shared); {@code FilterPushChannel} (one
 *       subscriber's push stream and its bound); {@code FilterRemoval}, {@code FilterStatus},
 *       {@code FilterMetrics};</li>
 *   <li>the client ({@code --filternode}): {@link io.wakurelay.services.filter.FilterClient} (subscribe, unsubscribe,
 *       ping, refresh and re-subscription) and {@link io.wakurelay.services.filter.FilterClientConfig};
 *       {@code FilterClientExchange} (a {@code ClientExchange}); {@code FilterServicePeers} (the peers subscribed
 *       through, the only ones whose push streams are read); {@code FilterPushReceiver} (the pushes of one push
 *       stream); {@code FilterClientCriteria} (what is subscribed, bounded); failures as
 *       {@link io.wakurelay.services.filter.FilterRequestException} with nwaku's kinds;
 *       {@code FilterClientMetrics}.</li>
 * </ul>
 */
package io.wakurelay.services.filter;
