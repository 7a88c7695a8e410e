package io.wakurelay.services.lightpush;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.wakurelay.archive.QuerySlots;
import io.wakurelay.p2p.Host;
import io.wakurelay.p2p.mss.NegotiationException;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.protocol.LatencyBuckets;
import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.services.Failures;
import io.wakurelay.services.Meters;
import io.wakurelay.services.ServiceLifecycle;
import io.wakurelay.services.proto.LightPushRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * Pushes messages through a service node over {@value LightpushConfig#PROTOCOL_ID}, as nwaku's lightpush client does
 * for a node started with {@code --lightpushnode} (an edge node that does not relay): dials the peer (or reuses the
 * host's connection to it), sends one {@code LightPushRequest} and turns the answer into a {@link LightpushOutcome}
 * with nwaku's statuses and words. Never fails: a dial that fails is 505 "Peer is not accessible: dial_failure - ..",
 * no answer in time 503 "Push request timed out", a broken answer 500.
 *
 * <p>Bounded by {@link LightpushClientConfig}: pushes under way at once (one more is refused at once, 503) and the time
 * a push may take. Every push is counted by its {@link Result}.
 */
public final class LightpushClient implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(LightpushClient.class);
    /** nwaku's client words (waku_lightpush/client.nim and its REST handler). */
    static final String DIAL_FAILURE = "dial_failure";
    static final String TIMED_OUT = "Push request timed out";

    /** How a push ended, the {@code outcome} label of {@code waku_lightpush_client_requests_total}. */
    enum Result {
        SUCCESS, ERROR_STATUS, DIAL_FAILURE, BAD_RESPONSE, TIMEOUT, REFUSED;

        String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private final LightpushClientConfig config;
    private final Host host;
    private final ServiceLifecycle lifecycle;
    private final Map<Result, Counter> results = new EnumMap<>(Result.class);
    private final Timer duration;
    private final QuerySlots inFlight;

    private LightpushClient(LightpushClientConfig config, Host host, MeterRegistry registry) {
        this.config = config;
        this.host = host;
        this.lifecycle = ServiceLifecycle.client(LightpushClient.class, "lightpush client", host, registry);
        Meters meters = lifecycle.meters();
        this.inFlight = new QuerySlots(config.maxInFlight());
        for (Result r : Result.values()) {
            results.put(r, meters.add(Counter.builder("waku.lightpush.client.requests").tag("outcome", r.label())
                    .description("pushes sent through the lightpush service node (--lightpushnode), by outcome").register(registry)));
        }
        meters.add(Gauge.builder("waku.lightpush.client.requests.in.flight", inFlight, QuerySlots::running)
                .description("pushes through the lightpush service node under way (dial to answer)").register(registry));
        meters.add(FunctionCounter.builder("waku.lightpush.client.requests.refused", inFlight, QuerySlots::refused)
                .description("pushes refused because as many were under way as allowed").register(registry));
        duration = meters.add(Timer.builder("waku.lightpush.client.request.duration")
                .description("time from the dial to the answer of a push through the lightpush service node")
                .serviceLevelObjectives(LatencyBuckets.between(Duration.ofMillis(1), Duration.ofSeconds(10))).register(registry));
    }

    /** @param registry where the client registers its meters (docs/services.md); removed at shutdown */
    public static LightpushClient start(LightpushClientConfig config, Host host, MeterRegistry registry) {
        return new LightpushClient(Objects.requireNonNull(config, "config"), Objects.requireNonNull(host, "host"),
                Objects.requireNonNull(registry, "registry"));
    }

    public LightpushClientConfig config() {
        return config;
    }

    /**
     * Asks the service node at {@code peer} (a TCP multiaddr ending in {@code /p2p/<peer id>}) to relay {@code message}.
     *
     * @param pubsubTopic null: the service node derives it (automatic sharding) or refuses
     * @return what the push came to; never an error
     */
    public Mono<LightpushOutcome> push(Multiaddr peer, String pubsubTopic, WakuMessage message) {
        Objects.requireNonNull(peer, "peer");
        Objects.requireNonNull(message, "message");
        return Mono.defer(() -> {
            if (lifecycle.isClosing()) {
                return Mono.just(counted(Result.REFUSED, LightpushOutcome.error(LightpushStatus.SERVICE_UNAVAILABLE,
                        "the lightpush client is shut down"), System.nanoTime()));
            }
            if (!inFlight.tryAcquire()) {
                return Mono.just(counted(Result.REFUSED, LightpushOutcome.error(LightpushStatus.SERVICE_UNAVAILABLE,
                        "the node has " + config.maxInFlight() + " pushes under way already; retry shortly"), System.nanoTime()));
            }
            long start = System.nanoTime();
            LightPushRequest.Builder request = LightPushRequest.newBuilder().setRequestId(UUID.randomUUID().toString())
                    .setMessage(message);
            if (pubsubTopic != null) {
                request.setPubsubTopic(pubsubTopic);
            }
            return exchange(peer, request.build())
                    .timeout(config.timeout(), Mono.error(() -> new LightpushClientException(Result.TIMEOUT,
                            LightpushOutcome.error(LightpushStatus.SERVICE_UNAVAILABLE, TIMED_OUT), null)))
                    .map(outcome -> counted(outcome.isSuccess() ? Result.SUCCESS : Result.ERROR_STATUS, outcome, start))
                    .onErrorResume(LightpushClientException.class, e -> Mono.just(counted(e.result(), e.outcome(), start)))
                    .onErrorResume(e -> {
                        log.atWarn().addKeyValue("peer", String.valueOf(peer)).setCause(e).log("lightpush through the peer failed");
                        return Mono.just(counted(Result.BAD_RESPONSE, LightpushOutcome.error(
                                LightpushStatus.INTERNAL_SERVER_ERROR, "internal error"), start));
                    })
                    .doFinally(signal -> inFlight.release());
        });
    }

    private Mono<LightpushOutcome> exchange(Multiaddr peer, LightPushRequest request) {
        return host.dial(peer)
                .onErrorMap(e -> !(e instanceof LightpushClientException), e -> dialFailure(peer, e))
                .flatMap(connection -> Mono.<LightpushOutcome>create(sink -> {
                    LightpushClientExchange exchange = new LightpushClientExchange(request, config.maxResponseBytes(), sink);
                    sink.onCancel(exchange::cancel);
                    connection.openStream(LightpushConfig.PROTOCOL_ID, exchange)
                            .subscribe(null, e -> sink.error(dialFailure(peer, e)));
                }));
    }

    /** nwaku's words for a service node it cannot reach or that does not serve lightpush (its dialPeer fails alike). */
    private static LightpushClientException dialFailure(Multiaddr peer, Throwable e) {
        log.atDebug().addKeyValue("peer", String.valueOf(peer)).addKeyValue("reason", e instanceof NegotiationException.NotSupported
                ? "it does not serve " + LightpushConfig.PROTOCOL_ID : Failures.reason(e)).log("lightpush: cannot reach the peer");
        return new LightpushClientException(Result.DIAL_FAILURE, LightpushOutcome.error(LightpushStatus.NO_PEERS_TO_RELAY,
                "Peer is not accessible: " + DIAL_FAILURE + " - " + peer), e);
    }

    private LightpushOutcome counted(Result result, LightpushOutcome outcome, long startNanos) {
        results.get(result).increment();
        if (result != Result.REFUSED) {
            duration.record(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS);
        }
        return outcome;
    }

    /** Refuses new pushes and removes the meters (pushes under way end with their streams). Idempotent. */
    public Mono<Void> shutdown(Duration grace) {
        return lifecycle.shutdown(grace, () -> { });
    }

    @Override
    public void close() {
        shutdown(Duration.ZERO).block();
    }
}
