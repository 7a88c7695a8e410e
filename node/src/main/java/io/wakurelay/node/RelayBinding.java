package io.wakurelay.node;

import io.wakurelay.node.rest.RelayPort;
import io.wakurelay.protocol.MessageHash;
import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.relay.PublishResult;
import io.wakurelay.relay.Relay;
import io.wakurelay.relay.MessageRejectedException;
import io.wakurelay.relay.RelayBusyException;
import io.wakurelay.services.lightpush.ProofSource;
import reactor.core.publisher.Mono;

import java.util.Collection;
import java.util.Set;

/** The relay behind the REST API's {@link RelayPort}: the one place where REST meets the relay's own API. */
final class RelayBinding implements RelayPort {
    private final Relay relay;
    private final ProofSource proofs;

    /** @param proofs where the proof of a message comes from when the relay validates RLN; null when it does not */
    RelayBinding(Relay relay, ProofSource proofs) {
        this.relay = relay;
        this.proofs = proofs;
    }

    /**
     * As nwaku's {@code POST /relay/v1/messages} (rest_api/endpoint/relay/handlers.nim): with RLN on, a proof of the
     * node's membership is appended to every message first (500 when it cannot be), then the relay validates it
     * (400 "Failed to publish: RLN validation failed" when it refuses).
     */
    @Override
    public Mono<MessageHash> publish(String pubsubTopic, WakuMessage message) {
        return Mono.defer(() -> relay.publish(pubsubTopic, proofs == null ? message : proofs.prove(message)))
                .map(PublishResult::hash)
                .onErrorMap(ProofSource.ProofUnavailableException.class,
                        e -> new Unprovable("Failed to publish: error appending RLN proof to message: " + e.getMessage()))
                .onErrorMap(MessageRejectedException.class,
                        e -> new Rejected("Failed to publish: RLN validation failed: " + e.reason()))
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
