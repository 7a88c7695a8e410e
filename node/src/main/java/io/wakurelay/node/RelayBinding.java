package io.wakurelay.node;

import io.wakurelay.node.rest.RelayPort;
import io.wakurelay.protocol.MessageHash;
import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.relay.PublishResult;
import io.wakurelay.relay.Relay;
import io.wakurelay.relay.RelayBusyException;
import reactor.core.publisher.Mono;

import java.util.Collection;
import java.util.Set;

/** The relay behind the REST API's {@link RelayPort}: the one place where REST meets the relay's own API. */
final class RelayBinding implements RelayPort {
    private final Relay relay;

    RelayBinding(Relay relay) {
        this.relay = relay;
    }

    @Override
    public Mono<MessageHash> publish(String pubsubTopic, WakuMessage message) {
        return relay.publish(pubsubTopic, message)
                .map(PublishResult::hash)
                .onErrorMap(RelayBusyException.class, e -> new Busy(e.getMessage()));
    }

    @Override
    public Set<String> subscriptions() {
        return relay.subscriptions();
    }

    @Override
    public void subscribe(Collection<String> topics) {
        try {
            relay.subscribe(topics);
        } catch (IllegalArgumentException e) {
            // the topics were validated by REST already: what the relay refuses is their number
            throw new TooManyTopics(e.getMessage());
        }
    }

    @Override
    public void unsubscribe(Collection<String> topics) {
        relay.unsubscribe(topics);
    }
}
