package io.wakurelay.node;

import io.wakurelay.node.rest.LightpushPort;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.services.lightpush.LegacyLightpushOutcome;
import io.wakurelay.services.lightpush.LightpushClient;
import io.wakurelay.services.lightpush.LightpushOutcome;
import io.wakurelay.services.lightpush.LightpushService;
import reactor.core.publisher.Mono;

/**
 * Where the node's REST lightpush goes, as nwaku chooses: through the service node of {@code --lightpushnode} when
 * one is given (its client), else through the node's own lightpush service; {@link #of} is null with neither.
 */
final class NodeLightpush {
    private NodeLightpush() {
    }

    /**
     * @param service         the node's lightpush service; null when off
     * @param client          the lightpush client
     * @param serviceNode     {@code --lightpushnode}; null: none
     * @param maxMessageBytes this node's message size limit, named in the legacy route's words
     */
    static LightpushPort of(LightpushService service, LightpushClient client, Multiaddr serviceNode, int maxMessageBytes) {
        if (serviceNode != null && client != null) {
            return new Remote(client, serviceNode, maxMessageBytes);
        }
        if (service != null) {
            return new LightpushPort() {
                @Override
                public Mono<LightpushOutcome> push(String pubsubTopic, WakuMessage message) {
                    return service.push(pubsubTopic, message);
                }

                @Override
                public Mono<LegacyLightpushOutcome> pushLegacy(String pubsubTopic, WakuMessage message) {
                    return service.pushLegacy(pubsubTopic, message);
                }
            };
        }
        return null;
    }

    /** Through a service node over lightpush v3 (both routes: this node's client speaks v3 only). */
    private record Remote(LightpushClient client, Multiaddr serviceNode, int maxMessageBytes) implements LightpushPort {
        /** nwaku's status and words when no pubsub topic is given and none can be derived (lightpushPublish). */
        private static final int INVALID_MESSAGE = 420;

        @Override
        public Mono<LightpushOutcome> push(String pubsubTopic, WakuMessage message) {
            if (pubsubTopic == null) {
                return Mono.just(new LightpushOutcome(INVALID_MESSAGE, LegacyLightpushOutcome.TOPIC_REQUIRED, 0));
            }
            return client.push(serviceNode, pubsubTopic, message);
        }

        @Override
        public Mono<LegacyLightpushOutcome> pushLegacy(String pubsubTopic, WakuMessage message) {
            if (pubsubTopic == null) {
                return Mono.just(LegacyLightpushOutcome.failed(LegacyLightpushOutcome.TOPIC_REQUIRED));
            }
            return client.push(serviceNode, pubsubTopic, message).map(o -> LegacyLightpushOutcome.fromV3(o, maxMessageBytes));
        }
    }
}
