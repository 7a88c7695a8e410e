package io.wakurelay.services.store;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.wakurelay.archive.QuerySlots;
import io.wakurelay.archive.StoreQuery;
import io.wakurelay.archive.StoreResponse;
import io.wakurelay.p2p.Host;
import io.wakurelay.p2p.mss.NegotiationException;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.protocol.LatencyBuckets;
import io.wakurelay.services.Failures;
import io.wakurelay.services.Meters;
import io.wakurelay.services.ServiceLifecycle;
import io.wakurelay.services.proto.StoreQueryRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Queries another node's store over {@value StoreServiceConfig#PROTOCOL_ID}: dials the peer (or reuses the host's
 * connection to it), sends one {@code StoreQueryRequest} built from a {@link StoreQuery}, and returns the page as
 * the archive's own {@link StoreResponse}, so a caller renders a remote page as it renders a local one (REST's
 * {@code peerAddr}). A query that does not succeed fails with a {@link RemoteStoreException} carrying the status
 * to report.
 *
 * <p>The results' {@code timestamp} is the message's own (0 without data): a remote store does not say when it
 * received a message.
 */
public final class StoreClient implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(StoreClient.class);

    private final StoreClientConfig config;
    private final Host host;
    private final ServiceLifecycle lifecycle;
    private final Map<String, Counter> outcomes = new ConcurrentHashMap<>();
    private final Timer duration;
    private final QuerySlots slots = new QuerySlots(MAX_OPEN_QUERIES);

    /**
     * Pages of other nodes' stores held at once through {@link #open} (REST's {@code peerAddr}), from the dial until
     * the caller has written the page out and closed it; one more is refused (429) at once.
     */
    public static final int MAX_OPEN_QUERIES = 16;

    /** go-libp2p's words for a peer that does not serve the protocol, which nwaku's interop tests look for too. */
    static final String NOT_SUPPORTED = "failed to negotiate protocol: protocols not supported: ["
            + StoreServiceConfig.PROTOCOL_ID + "]";

    private StoreClient(StoreClientConfig config, Host host, MeterRegistry registry) {
        this.config = config;
        this.host = host;
        this.lifecycle = ServiceLifecycle.client(StoreClient.class, "store client", host, registry);
        Meters meters = lifecycle.meters();
        for (String outcome : new String[]{"success", "error_status", "bad_response", "peer_dial_failure"}) {
            outcomes.put(outcome, meters.add(Counter.builder("waku.store.client.queries").tag("outcome", outcome)
                    .description("queries of other nodes' stores, by outcome").register(registry)));
        }
        meters.add(Gauge.builder("waku.store.client.queries.open", slots, QuerySlots::running)
                .description("pages of other nodes' stores being fetched or written out (REST peerAddr)").register(registry));
        meters.add(FunctionCounter.builder("waku.store.client.queries.refused", slots, QuerySlots::refused)
                .description("queries of other nodes' stores refused because as many were open as allowed").register(registry));
        duration = meters.add(Timer.builder("waku.store.client.query.duration")
                .description("time from the dial to the whole response of a query of another node's store")
                .serviceLevelObjectives(LatencyBuckets.between(Duration.ofMillis(1), Duration.ofSeconds(10))).register(registry));
    }

    /** @param registry where the client registers its meters (docs/services.md); removed at shutdown */
    public static StoreClient start(StoreClientConfig config, Host host, MeterRegistry registry) {
        return new StoreClient(Objects.requireNonNull(config, "config"), Objects.requireNonNull(host, "host"),
                Objects.requireNonNull(registry, "registry"));
    }

    public StoreClientConfig config() {
        return config;
    }

    /** {@link #query(Multiaddr, StoreQuery, String)} with a random request id. */
    public Mono<StoreResponse> query(Multiaddr peer, StoreQuery query) {
        return query(peer, query, null);
    }

    /**
     * Asks the store of the peer at {@code peer} (a TCP multiaddr ending in {@code /p2p/<peer id>}) for one page.
     *
     * @param requestId the request id to send; null or empty: a random UUID
     * @return the page; errors with {@link RemoteStoreException}
     */
    public Mono<StoreResponse> query(Multiaddr peer, StoreQuery query, String requestId) {
        Objects.requireNonNull(peer, "peer");
        Objects.requireNonNull(query, "query");
        return Mono.defer(() -> {
            if (lifecycle.isClosing()) {
                return Mono.error(new RemoteStoreException(RemoteStoreException.PEER_DIAL_FAILURE, "the store client is shut down"));
            }
            String id = requestId == null || requestId.isEmpty() ? UUID.randomUUID().toString() : requestId;
            StoreQueryRequest request = StoreCodec.toRequest(query, id);
            long start = System.nanoTime();
            return host.dial(peer)
                    .onErrorMap(e -> !(e instanceof RemoteStoreException),
                            e -> dialFailure(peer, "cannot reach it: " + Failures.reason(e), e))
                    .flatMap(connection -> Mono.<StoreResponse>create(sink -> {
                        StoreClientExchange exchange = new StoreClientExchange(request, config.maxResponseBytes(), sink);
                        sink.onCancel(exchange::cancel);
                        connection.openStream(StoreServiceConfig.PROTOCOL_ID, exchange).subscribe(null, e -> sink.error(
                                dialFailure(peer, e instanceof NegotiationException.NotSupported ? NOT_SUPPORTED
                                        : "cannot open a store stream: " + Failures.reason(e), e)));
                    }))
                    .timeout(config.timeout(), Mono.error(() -> new RemoteStoreException(RemoteStoreException.PEER_DIAL_FAILURE,
                            "no store response from " + peer + " within " + config.timeout().toMillis() + " ms")))
                    .doOnSuccess(page -> outcome("success", start))
                    .doOnError(RemoteStoreException.class, e -> outcome(switch (e.statusCode()) {
                        case RemoteStoreException.BAD_RESPONSE -> "bad_response";
                        case RemoteStoreException.PEER_DIAL_FAILURE -> "peer_dial_failure";
                        default -> "error_status";
                    }, start));
        });
    }

    /**
     * {@link #query(Multiaddr, StoreQuery, String)}, as a page that holds one of {@link #MAX_OPEN_QUERIES} slots from
     * the dial until it is closed, so that clients cannot make the node hold any number of remote pages at once.
     *
     * @return the page (the caller closes it); errors with {@link RemoteStoreException}, status 429 when every slot
     * is taken
     */
    public Mono<OpenQuery> open(Multiaddr peer, StoreQuery query, String requestId) {
        return Mono.defer(() -> {
            if (!slots.tryAcquire()) {
                return Mono.error(new RemoteStoreException(RemoteStoreException.TOO_MANY_REQUESTS, "the node is asking "
                        + "other stores " + MAX_OPEN_QUERIES + " queries already; retry shortly"));
            }
            AtomicBoolean held = new AtomicBoolean(true);
            Runnable release = () -> {
                if (held.compareAndSet(true, false)) {
                    slots.release();
                }
            };
            return query(peer, query, requestId).map(page -> OpenQuery.remote(page, release))
                    .doOnError(e -> release.run()).doOnCancel(release);
        });
    }

    /**
     * A peer that could not be asked, in nwaku's words ({@code $StoreError}: {@code PEER_DIAL_FAILURE: <peer>}, which
     * scripts look for), with why after them.
     */
    private static RemoteStoreException dialFailure(Multiaddr peer, String why, Throwable cause) {
        return new RemoteStoreException(RemoteStoreException.PEER_DIAL_FAILURE,
                "PEER_DIAL_FAILURE: " + peer + " (" + why + ")", cause);
    }

    private void outcome(String outcome, long startNanos) {
        outcomes.get(outcome).increment();
        duration.record(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS);
    }

    /** Refuses new queries and removes the meters (queries under way end with their streams). Idempotent. */
    public Mono<Void> shutdown(Duration grace) {
        return lifecycle.shutdown(grace, () -> { });
    }

    @Override
    public void close() {
        shutdown(Duration.ZERO).block();
    }
}
