package io.wakurelay.services.lightpush;

import io.micrometer.core.instrument.MeterRegistry;
import io.wakurelay.p2p.Host;
import io.wakurelay.protocol.ProtocolViolation;
import io.wakurelay.protocol.Violation;
import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.relay.PublishResult;
import io.wakurelay.relay.Relay;
import io.wakurelay.relay.MessageRejectedException;
import io.wakurelay.relay.RelayBusyException;
import io.wakurelay.relay.RelayClosedException;
import io.wakurelay.relay.RelayPeer;
import io.wakurelay.services.PeerRateLimiter;
import io.wakurelay.services.ServerExchange;
import io.wakurelay.services.ServiceLifecycle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

import java.time.Duration;
import java.util.Objects;

/**
 * The lightpush v3 server, {@value LightpushConfig#PROTOCOL_ID} (waku-org/specs standards/core/lightpush.md): a
 * light client hands over a message, this node validates it, relays it on the mesh (and so archives it, through
 * the relay's accepted messages) and answers with the status and the number of relay peers it went to. Bounded by
 * {@link LightpushConfig}: request size (413) and per-peer rate (429). docs/services.md lists the statuses.
 *
 * <p>Started, it serves the protocol on the host (and identify advertises it); shut down, it no longer does.
 */
public final class LightpushService implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(LightpushService.class);
    /** nwaku's error of its RLN validator (waku/node/kernel_api/relay.nim), the one validator a relay has. */
    static final String RLN_VALIDATION_FAILED = "RLN validation failed";

    private final LightpushConfig config;
    private final Relay relay;
    private final ServiceLifecycle lifecycle;
    private final LightpushMetrics metrics;
    private final PeerRateLimiter rateLimiter;
    private final ProofSource proofs;

    private LightpushService(LightpushConfig config, Host host, Relay relay, ProofSource proofs, MeterRegistry registry) {
        this.config = config;
        this.proofs = proofs;
        this.relay = relay;
        this.lifecycle = ServiceLifecycle.service(LightpushService.class, "lightpush service", host, registry);
        this.metrics = new LightpushMetrics(lifecycle.meters());
        this.rateLimiter = new PeerRateLimiter(config.rateLimit(), System::nanoTime);
    }

    /**
     * Starts serving {@value LightpushConfig#PROTOCOL_ID} on {@code host}, publishing through {@code relay}.
     *
     * @param registry where the service registers its meters (docs/services.md); removed at shutdown
     */
    public static LightpushService start(LightpushConfig config, Host host, Relay relay, MeterRegistry registry) {
        return start(config, host, relay, null, registry);
    }

    /**
     * As {@link #start(LightpushConfig, Host, Relay, MeterRegistry)} on a relay that validates RLN: a message pushed
     * without a proof gets one from {@code proofs} (nwaku's 504 {@code OUT_OF_RLN_PROOF} when it cannot), and one pushed
     * with a proof is validated by the relay (420 {@code INVALID_MESSAGE} when it fails).
     *
     * @param proofs null when the relay validates no proofs
     */
    public static LightpushService start(LightpushConfig config, Host host, Relay relay, ProofSource proofs,
                                         MeterRegistry registry) {
        LightpushService service = new LightpushService(Objects.requireNonNull(config, "config"),
                Objects.requireNonNull(host, "host"), Objects.requireNonNull(relay, "relay"), proofs,
                Objects.requireNonNull(registry, "registry"));
        service.lifecycle.serve(LightpushConfig.PROTOCOL_ID, stream -> new LightpushExchange(service));
        log.atInfo().addKeyValue("protocol", LightpushConfig.PROTOCOL_ID)
                .addKeyValue("maxRequestBytes", config.maxRequestBytes())
                .addKeyValue("rateLimit", String.valueOf(config.rateLimit())).log("lightpush service started");
        return service;
    }

    public LightpushConfig config() {
        return config;
    }

    LightpushMetrics metrics() {
        return metrics;
    }

    /** What bounds each of its exchanges: request size, time, each peer's rate. */
    ServerExchange.Limits exchangeLimits() {
        return new ServerExchange.Limits(config.maxRequestBytes(), config.requestTimeout(), rateLimiter, metrics.service);
    }

    /**
     * Pushes one message as a lightpush request asks: checks the pubsub topic (this node must relay it, and a relay
     * peer must be on it), then publishes through the relay, which validates, relays (flood publish) and hands the
     * message to the archive. Never fails: every refusal is an outcome with its status, counted in the metrics.
     *
     * @param pubsubTopic null when the request named none
     * @param message     null when the request carried none
     */
    public Mono<LightpushOutcome> push(String pubsubTopic, WakuMessage message) {
        return outcome(pubsubTopic, message).doOnNext(this::count);
    }

    private Mono<LightpushOutcome> outcome(String pubsubTopic, WakuMessage message) {
        LightpushOutcome refused = refusal(pubsubTopic, message);
        if (refused != null) {
            return Mono.just(refused);
        }
        WakuMessage proved;
        try {
            proved = withProof(message);
        } catch (ProofSource.ProofUnavailableException e) {
            return Mono.just(LightpushOutcome.error(LightpushStatus.OUT_OF_RLN_PROOF, e.getMessage()));
        }
        return relay.publish(pubsubTopic, proved)
                .map(result -> published(pubsubTopic, result))
                .onErrorResume(e -> Mono.just(publishFailed(e)));
    }

    /**
     * Pushes one message as nwaku's legacy lightpush does for its REST {@code POST /lightpush/v1/message} on a node that
     * serves lightpush itself: the message is validated (a too large one is refused in nwaku's words) and published;
     * a publish that reaches no relay peer, for whatever reason, is {@link LegacyLightpushOutcome#NOT_PUBLISHED}, as
     * in nwaku. Unlike {@link #push}, the node need not relay the topic (nwaku publishes to the topic's peers anyway).
     *
     * @param pubsubTopic null when none was given and none could be derived
     */
    public Mono<LegacyLightpushOutcome> pushLegacy(String pubsubTopic, WakuMessage message) {
        Objects.requireNonNull(message, "message");
        if (pubsubTopic == null || pubsubTopic.isBlank()) {
            return Mono.just(LegacyLightpushOutcome.failed(LegacyLightpushOutcome.TOPIC_REQUIRED));
        }
        if (lifecycle.isClosing()) {
            return Mono.just(LegacyLightpushOutcome.failed("lightpush is shutting down"));
        }
        int maxBytes = relay.config().limits().maxMessageSize();
        if (message.getSerializedSize() > maxBytes) {
            return Mono.just(LegacyLightpushOutcome.failed(LegacyLightpushOutcome.tooLarge(maxBytes)));
        }
        if (!hasRelayPeerOn(pubsubTopic)) {
            // said before publishing, so that nothing is stored or marked seen and a retry later can succeed
            return Mono.just(LegacyLightpushOutcome.failed(LegacyLightpushOutcome.NOT_PUBLISHED));
        }
        WakuMessage proved;
        try {
            proved = withProof(message);
        } catch (ProofSource.ProofUnavailableException e) {
            return Mono.just(LegacyLightpushOutcome.failed(e.getMessage()));
        }
        return relay.publish(pubsubTopic, proved)
                .map(result -> result.duplicate() || result.relayedTo() == 0
                        ? LegacyLightpushOutcome.failed(LegacyLightpushOutcome.NOT_PUBLISHED) : LegacyLightpushOutcome.OK)
                .onErrorResume(e -> Mono.just(LegacyLightpushOutcome.failed(e instanceof ProtocolViolation violation
                        ? (violation.violation() == Violation.MESSAGE_TOO_LARGE ? LegacyLightpushOutcome.tooLarge(maxBytes) : violation.getMessage())
                        : e instanceof MessageRejectedException ? RLN_VALIDATION_FAILED : LegacyLightpushOutcome.NOT_PUBLISHED)));
    }

    /** As nwaku's checkAndGenerateRLNProof: a message with a proof keeps it; one without gets one, where RLN is on. */
    private WakuMessage withProof(WakuMessage message) {
        if (proofs == null || !message.getRateLimitProof().isEmpty()) {
            return message;
        }
        return proofs.prove(message);
    }

    private LightpushOutcome refusal(String topic, WakuMessage message) {
        if (message == null) {
            return LightpushOutcome.error(LightpushStatus.BAD_REQUEST, "the request carries no message");
        }
        if (topic == null) {
            // as nwaku with static sharding: there is no content-topic routing to fall back on
            return LightpushOutcome.error(LightpushStatus.INVALID_MESSAGE, "pubsub_topic is required: this node uses static sharding");
        }
        if (topic.isBlank()) {
            return LightpushOutcome.error(LightpushStatus.BAD_REQUEST, "pubsub_topic is empty");
        }
        if (!relay.subscriptions().contains(topic)) {
            return LightpushOutcome.error(LightpushStatus.UNSUPPORTED_PUBSUB_TOPIC, "this node does not relay " + topic
                    + "; it relays " + relay.subscriptions());
        }
        if (lifecycle.isClosing()) {
            return LightpushOutcome.error(LightpushStatus.SERVICE_UNAVAILABLE, "lightpush is shutting down");
        }
        if (!hasRelayPeerOn(topic)) {
            // said before publishing, so that nothing is stored or marked seen and a retry later can succeed
            return LightpushOutcome.error(LightpushStatus.NO_PEERS_TO_RELAY, "no relay peers on " + topic);
        }
        return null;
    }

    private boolean hasRelayPeerOn(String topic) {
        for (RelayPeer peer : relay.peers()) {
            if (peer.topics().contains(topic)) {
                return true;
            }
        }
        return false;
    }

    private static LightpushOutcome published(String topic, PublishResult result) {
        if (result.duplicate()) {
            // as nwaku: a message seen before is not relayed again
            return LightpushOutcome.error(LightpushStatus.INVALID_MESSAGE, LightpushOutcome.DUPLICATE);
        }
        if (result.relayedTo() == 0) {
            return LightpushOutcome.error(LightpushStatus.NO_PEERS_TO_RELAY, "no relay peer on " + topic
                    + " took the message (this node has it: " + result.hash() + ")");
        }
        return LightpushOutcome.success(result.relayedTo());
    }

    private static LightpushOutcome publishFailed(Throwable e) {
        if (e instanceof ProtocolViolation violation) {
            return LightpushOutcome.error(violation.violation() == Violation.MESSAGE_TOO_LARGE
                    ? LightpushStatus.PAYLOAD_TOO_LARGE : LightpushStatus.INVALID_MESSAGE, violation.getMessage());
        }
        if (e instanceof MessageRejectedException rejected) {
            // nwaku's relay names the validator that failed ("RLN validation failed"); ours adds the RLN outcome
            return LightpushOutcome.error(LightpushStatus.INVALID_MESSAGE, RLN_VALIDATION_FAILED + ": " + rejected.reason());
        }
        if (e instanceof RelayBusyException) {
            return LightpushOutcome.error(LightpushStatus.SERVICE_UNAVAILABLE, "this node is busy (its archive is behind); try again");
        }
        if (e instanceof RelayClosedException) {
            return LightpushOutcome.error(LightpushStatus.SERVICE_UNAVAILABLE, "the relay is shutting down");
        }
        log.warn("lightpush publish failed", e);
        return LightpushOutcome.error(LightpushStatus.INTERNAL_SERVER_ERROR, "internal error");
    }

    private void count(LightpushOutcome outcome) {
        if (outcome.isSuccess()) {
            metrics.relayPeers.record(outcome.relayPeerCount());
        } else {
            metrics.error(LightpushStatus.of(outcome.statusCode()));
        }
    }

    /**
     * Stops serving: the protocol is no longer offered and requests on streams already open are answered 503. A
     * publish never waits, so there is nothing to drain. Idempotent.
     */
    public Mono<Void> shutdown(Duration grace) {
        return lifecycle.shutdown(grace, () -> { });
    }

    @Override
    public void close() {
        shutdown(Duration.ZERO).block();
    }
}
