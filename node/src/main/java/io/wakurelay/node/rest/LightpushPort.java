package io.wakurelay.node.rest;

import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.services.lightpush.LegacyLightpushOutcome;
import io.wakurelay.services.lightpush.LightpushOutcome;
import reactor.core.publisher.Mono;

/**
 * Where REST lightpush goes: the node's own lightpush service (nwaku's "self-hosted" lightpush) or a service node
 * asked through the lightpush client ({@code --lightpushnode}). Neither method fails: every refusal is an outcome.
 */
public interface LightpushPort {
    /** {@code POST /lightpush/v3/message}. @param pubsubTopic null when none was given or derived */
    Mono<LightpushOutcome> push(String pubsubTopic, WakuMessage message);

    /** {@code POST /lightpush/v1/message}, in the legacy protocol's terms. @param pubsubTopic as {@link #push} */
    Mono<LegacyLightpushOutcome> pushLegacy(String pubsubTopic, WakuMessage message);
}
