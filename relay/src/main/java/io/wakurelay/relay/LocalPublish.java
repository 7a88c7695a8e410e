package io.wakurelay.relay;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.EnvelopeEncoder;
import io.wakurelay.protocol.ProtocolViolation;
import io.wakurelay.protocol.Violation;
import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.relay.validation.Screen;
import io.wakurelay.relay.validation.Verdict;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import java.util.Objects;

/**
 * This node's own messages ({@link Relay#publish}: REST, lightpush): validated (the message format, then an installed
 * validator, as nwaku's {@code validateMessage} runs before its publish), encoded once, hashed once, marked seen,
 * written to every peer of the topic above the publish threshold (flood publish), and handed to the local consumer if
 * this node relays the topic.
 *
 * <p>With a validator its screen runs on the publisher's thread, and a message it sends to verification waits in the
 * validation stage like a peer's, within the stage's bounds but without a per-peer budget; when the stage is full the
 * publish is refused at once ({@link RelayBusyException}), never queued beyond it. Its verdict comes on a validation
 * thread, where the message is then sent. A message the validator rejects or ignores is not sent:
 * {@link MessageRejectedException}. A message seen before is a duplicate, not validated again.
 */
final class LocalPublish {
    private static final Logger log = LoggerFactory.getLogger(LocalPublish.class);

    private final RelayConfig config;
    private final EnvelopeEncoder encoder;
    private final GossipRouter router;
    private final HandOver handOver;
    private final RouterEvents events;
    private final ByteBufAllocator alloc;
    private final Runnable checkOpen;
    private final ValidationRoom room;

    /**
     * @param checkOpen throws {@link RelayClosedException} after shutdown
     * @param room      the validation stage of an installed validator; null: none
     */
    LocalPublish(RelayConfig config, EnvelopeEncoder encoder, GossipRouter router, HandOver handOver,
                 RouterEvents events, ByteBufAllocator alloc, Runnable checkOpen, ValidationRoom room) {
        this.config = config;
        this.encoder = encoder;
        this.router = router;
        this.handOver = handOver;
        this.events = events;
        this.alloc = alloc;
        this.checkOpen = checkOpen;
        this.room = room;
    }

    Mono<PublishResult> publish(String pubsubTopic, WakuMessage message) {
        return room == null ? Mono.fromCallable(() -> publishNow(pubsubTopic, message))
                : Mono.defer(() -> publishValidated(pubsubTopic, message));
    }

    private PublishResult publishNow(String pubsubTopic, WakuMessage message) {
        Envelope envelope = encode(pubsubTopic, message);
        try {
            TopicEvents topicEvents = topicUnlessBusy(pubsubTopic);
            return send(pubsubTopic, envelope, topicEvents, router.messageId(envelope.messageBytes()));
        } finally {
            envelope.release();
        }
    }

    private Mono<PublishResult> publishValidated(String pubsubTopic, WakuMessage message) {
        Envelope envelope = encode(pubsubTopic, message);
        boolean handedOff = false;
        try {
            TopicEvents topicEvents = topicUnlessBusy(pubsubTopic);
            MessageId id = router.messageId(envelope.messageBytes());
            if (router.seenBefore(id)) {
                events.duplicate();
                return Mono.just(new PublishResult(envelope.hash(), true, 0));
            }
            Screen screen = room.screen(envelope);
            if (screen instanceof Verdict verdict) {
                return Mono.just(carryOut(verdict, pubsubTopic, envelope, topicEvents, id));
            }
            OwnVerification verification = new OwnVerification(pubsubTopic, envelope, topicEvents, id);
            handedOff = true;
            String refused = room.submit(verification);
            if (refused != null) {
                verification.dropped(refused);
            }
            return verification.result.asMono();
        } finally {
            if (!handedOff) {
                envelope.release();
            }
        }
    }

    private Envelope encode(String pubsubTopic, WakuMessage message) {
        Objects.requireNonNull(pubsubTopic, "pubsubTopic");
        Objects.requireNonNull(message, "message");
        checkOpen.run();
        events.publishedLocally();
        try {
            return encoder.encode(pubsubTopic, message, alloc);
        } catch (ProtocolViolation e) {
            events.invalid(e.violation());
            throw e;
        }
    }

    /** The topic's sink when this node relays it, else null; refused when the local consumer is too far behind. */
    private TopicEvents topicUnlessBusy(String pubsubTopic) {
        TopicEvents topicEvents = router.subscribedTopic(pubsubTopic);
        if (topicEvents != null && handOver.pending() >= config.localQueueMessages()) {
            throw new RelayBusyException("the local consumer is behind: " + handOver.pending()
                    + " accepted messages wait (limit " + config.localQueueMessages() + ")");
        }
        return topicEvents;
    }

    /** The validator's verdict: sent when accepted, else refused. The envelope stays the caller's. */
    private PublishResult carryOut(Verdict verdict, String pubsubTopic, Envelope envelope, TopicEvents topicEvents,
                                   MessageId id) {
        events.judged(verdict);
        if (verdict instanceof Verdict.Reject r) {
            events.invalid(Violation.VALIDATOR_REJECTED);
            throw new MessageRejectedException(r.reason(), false);
        } else if (verdict instanceof Verdict.Ignore i) {
            events.invalid(Violation.VALIDATOR_IGNORED);
            throw new MessageRejectedException(i.reason(), true);
        }
        return send(pubsubTopic, envelope, topicEvents, id);
    }

    /**
     * Marks the message seen, writes it to the topic's peers and hands it to the local consumer if this node relays
     * the topic ({@code topicEvents} not null). The envelope stays the caller's.
     */
    private PublishResult send(String pubsubTopic, Envelope envelope, TopicEvents topicEvents, MessageId id) {
        if (!router.markSeen(id)) {
            events.duplicate();
            return new PublishResult(envelope.hash(), true, 0);
        }
        events.accepted(envelope.message().payloadSize());
        ByteBuf rpcMessage = RpcWriter.message(alloc, envelope.messageBytes(), pubsubTopic);
        ByteBuf rpc = RpcWriter.forward(alloc, rpcMessage);
        rpcMessage.release();
        int relayedTo = router.relay(id, pubsubTopic, rpc);
        if (topicEvents != null) {
            // a topic published to without subscribing has no series: label values are this node's topics
            topicEvents.published(envelope.message().payloadSize());
            topicEvents.sent(envelope.messageBytes().readableBytes(), relayedTo);
            if (!handOver.offerPublished(envelope.retain())) {
                // the queue filled between the check and now: the message is out; only the local copy is lost
                envelope.release();
                log.atWarn().addKeyValue("hash", String.valueOf(envelope.hash()))
                        .addKeyValue("topic", String.valueOf(envelope.pubsubTopic()))
                        .log("local consumer full: a message was relayed but not delivered locally");
            }
        }
        return new PublishResult(envelope.hash(), false, relayedTo);
    }

    /** This node's message held for verification; the publisher's result follows the verdict. */
    private final class OwnVerification extends ValidationRoom.Verification {
        private final String pubsubTopic;
        private final TopicEvents topicEvents;
        private final MessageId id;
        private final Sinks.One<PublishResult> result = Sinks.one();

        OwnVerification(String pubsubTopic, Envelope envelope, TopicEvents topicEvents, MessageId id) {
            super(envelope, null);
            this.pubsubTopic = pubsubTopic;
            this.topicEvents = topicEvents;
            this.id = id;
        }

        @Override
        void verdict(Verdict verdict) {
            try {
                result.tryEmitValue(carryOut(verdict, pubsubTopic, envelope, topicEvents, id));
            } catch (RuntimeException e) {
                result.tryEmitError(e);
            } finally {
                envelope.release();
            }
        }

        @Override
        void dropped(String reason) {
            try {
                events.judged(Verdict.ignore(reason));
                events.invalid(Violation.VALIDATION_THROTTLED);
                result.tryEmitError(ValidationRoom.SHUTDOWN.equals(reason)
                        ? new RelayClosedException("the relay is shut down")
                        : new RelayBusyException("the validation stage is full (" + reason + "): try again later"));
            } finally {
                envelope.release();
            }
        }
    }
}
