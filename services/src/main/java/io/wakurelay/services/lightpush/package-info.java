/**
 * Lightpush v3 (waku-org/specs standards/core/lightpush.md), in flow order:
 * <ul>
 *   <li>the server: {@link io.wakurelay.services.lightpush.LightpushService} and
 *       {@link io.wakurelay.services.lightpush.LightpushConfig}; {@code LightpushExchange} (decode, publish through the
 *       relay, answer); {@link io.wakurelay.services.lightpush.ProofSource} (an RLN proof for a message that comes
 *       without one); {@code LightpushStatus}, {@code LightpushMetrics};</li>
 *   <li>what a push came to: {@link io.wakurelay.services.lightpush.LightpushOutcome}, and
 *       {@link io.wakurelay.services.lightpush.LegacyLightpushOutcome} (the legacy REST route's terms);</li>
 *   <li>the client (an edge node's {@code --lightpushnode}): {@link io.wakurelay.services.lightpush.LightpushClient}
 *       and {@link io.wakurelay.services.lightpush.LightpushClientConfig}; {@code LightpushClientExchange} (a
 *       {@code ClientExchange}) and {@code LightpushClientException}.</li>
 * </ul>
 */
package io.wakurelay.services.lightpush;
