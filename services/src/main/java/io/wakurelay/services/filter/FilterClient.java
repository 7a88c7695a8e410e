package io.wakurelay.services.filter;

import io.wakurelay.p2p.Host;
import io.wakurelay.p2p.PeerRecord;
import io.wakurelay.p2p.connection.Connection;
import io.wakurelay.p2p.connection.Stream;
import io.wakurelay.p2p.mss.NegotiationException;
import io.wakurelay.protocol.MessageValidator;
import io.wakurelay.protocol.ProtocolViolation;
import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.services.Meters;
import io.wakurelay.services.ServiceLifecycle;
import io.wakurelay.services.filter.FilterRequestException.Kind;
import io.wakurelay.services.proto.FilterSubscribeRequest;
import io.wakurelay.services.proto.FilterSubscribeRequest.FilterSubscribeType;
import io.wakurelay.services.proto.MessagePush;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The filter v2 client, as nwaku's {@code WakuFilterClient} with {@code --filternode}: subscribes, unsubscribes and
 * pings on {@value FilterConfig#SUBSCRIBE_PROTOCOL_ID} at one service node, and takes the service node's pushes on
 * {@value FilterConfig#PUSH_PROTOCOL_ID} streams, handing each message that matches a held subscription to the
 * {@link PushListener}. While it holds subscriptions it pings the service node every {@code refreshInterval} (which
 * keeps them alive there) and, when the ping fails (the service node restarted, or dropped them), subscribes them all
 * again. Requests fail with a {@link FilterRequestException} carrying nwaku's kind of failure.
 *
 * <p>Beyond nwaku's client, which takes a push from any peer and hands it on unchecked: a push stream is read only
 * from a peer this client subscribed through ({@link FilterServicePeers}; any other is reset unread), and a pushed
 * message must pass the rules a relayed message passes ({@link MessageValidator} with the relay's limits) and match
 * a held subscription. Each refusal is counted by outcome (docs/metrics.md).
 */
public final class FilterClient implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(FilterClient.class);
    private static final SecureRandom RANDOM = new SecureRandom();
    /** Peers subscribed through whose pushes are read (one with {@code --filternode}). */
    static final int MAX_SERVICE_PEERS = 8;

    /** Where pushed messages go: called on a connection's event loop; must not block. */
    @FunctionalInterface
    public interface PushListener {
        void onPush(String pubsubTopic, WakuMessage message);
    }

    private final FilterClientConfig config;
    private final Host host;
    private final PushListener listener;
    private final ServiceLifecycle lifecycle;
    private final FilterClientMetrics metrics;
    private final FilterClientCriteria criteria;
    private final FilterServicePeers servicePeers = new FilterServicePeers(MAX_SERVICE_PEERS);
    private final MessageValidator validator;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final Disposable refresh;

    private FilterClient(FilterClientConfig config, Host host, PushListener listener, MeterRegistry registry) {
        this.config = config;
        this.host = host;
        this.listener = listener;
        this.lifecycle = ServiceLifecycle.client(FilterClient.class, "filter client", host, registry);
        Meters meters = lifecycle.meters();
        this.criteria = new FilterClientCriteria(config.maxCriteria());
        this.metrics = new FilterClientMetrics(meters, criteria::size, inFlight::get);
        this.validator = new MessageValidator(config.limits(), () -> System.currentTimeMillis() * 1_000_000);
        lifecycle.serve(FilterConfig.PUSH_PROTOCOL_ID, stream -> {
            if (!servicePeers.contains(stream.remotePeer())) {
                metrics.push(FilterClientMetrics.NOT_SERVICE_PEER); // reset unread: no subscription was made there
                log.atDebug().addKeyValue("peer", String.valueOf(stream.remotePeer()))
                        .log("filter push stream from a peer this node did not subscribe through: reset");
                return null;
            }
            return new FilterPushReceiver(config.maxPushBytes(), new Receiver());
        });
        this.refresh = Flux.interval(config.refreshInterval(), config.refreshInterval(), Schedulers.parallel())
                .onBackpressureDrop()
                .concatMap(tick -> refreshOnce().onErrorResume(e -> Mono.empty()), 1)
                .subscribe();
    }

    /**
     * Registers the push protocol on {@code host} and starts the refresh loop.
     *
     * @param registry where the client registers its meters (docs/metrics.md); removed at shutdown
     */
    public static FilterClient start(FilterClientConfig config, Host host, PushListener listener, MeterRegistry registry) {
        return new FilterClient(Objects.requireNonNull(config, "config"), Objects.requireNonNull(host, "host"),
                Objects.requireNonNull(listener, "listener"), Objects.requireNonNull(registry, "registry"));
    }

    public FilterClientConfig config() {
        return config;
    }

    /** (pubsub topic, content topic) pairs subscribed. */
    public int criteria() {
        return criteria.size();
    }

    /** Subscribes {@code contentTopics} on {@code pubsubTopic} at the service node; held (and refreshed) once it agreed. */
    public Mono<Void> subscribe(String pubsubTopic, List<String> contentTopics) {
        return Mono.defer(() -> {
            checkCount(contentTopics);
            if (!criteria.fits(pubsubTopic, contentTopics)) {
                return Mono.error(new FilterRequestException(Kind.SERVICE_UNAVAILABLE,
                        "peer has reached maximum number of filter criteria (" + config.maxCriteria() + ")"));
            }
            return send(request(FilterSubscribeType.SUBSCRIBE).setPubsubTopic(pubsubTopic)
                    .addAllContentTopics(contentTopics).build())
                    .doOnSuccess(v -> criteria.add(pubsubTopic, contentTopics));
        });
    }

    /** Unsubscribes {@code contentTopics} on {@code pubsubTopic}; no longer held once the service node agreed. */
    public Mono<Void> unsubscribe(String pubsubTopic, List<String> contentTopics) {
        return Mono.defer(() -> {
            checkCount(contentTopics);
            return send(request(FilterSubscribeType.UNSUBSCRIBE).setPubsubTopic(pubsubTopic)
                    .addAllContentTopics(contentTopics).build())
                    .doOnSuccess(v -> criteria.remove(pubsubTopic, contentTopics));
        });
    }

    /** Ends every subscription at the service node; none is held afterwards, also when it had none (404). */
    public Mono<Void> unsubscribeAll() {
        return Mono.defer(() -> send(request(FilterSubscribeType.UNSUBSCRIBE_ALL).build()))
                .doOnSuccess(v -> criteria.clear())
                .doOnError(FilterRequestException.class, e -> {
                    if (e.kind() == Kind.NOT_FOUND) {
                        criteria.clear();
                    }
                });
    }

    /** Asks the service node whether it holds a subscription of this node (404 when not). */
    public Mono<Void> ping() {
        return Mono.defer(() -> send(request(FilterSubscribeType.SUBSCRIBER_PING).build()));
    }

    private void checkCount(List<String> contentTopics) {
        if (contentTopics.size() > config.maxContentTopicsPerRequest()) {
            throw new FilterRequestException(Kind.BAD_REQUEST,
                    "exceeds maximum content topics: " + config.maxContentTopicsPerRequest());
        }
    }

    /** nwaku's request ids: 10 random bytes in hex. */
    private static FilterSubscribeRequest.Builder request(FilterSubscribeType type) {
        byte[] id = new byte[10];
        RANDOM.nextBytes(id);
        return FilterSubscribeRequest.newBuilder().setRequestId(HexFormat.of().formatHex(id)).setFilterSubscribeType(type);
    }

    private Mono<Void> send(FilterSubscribeRequest request) {
        FilterSubscribeType type = request.getFilterSubscribeType();
        if (lifecycle.isClosing()) {
            return Mono.error(new FilterRequestException(Kind.SERVICE_UNAVAILABLE, "the filter client is shut down"));
        }
        if (inFlight.incrementAndGet() > config.maxInFlightRequests()) {
            inFlight.decrementAndGet();
            FilterRequestException refused = new FilterRequestException(Kind.TOO_MANY_REQUESTS,
                    "this node has " + config.maxInFlightRequests() + " filter requests under way already; retry shortly");
            metrics.request(type, FilterClientMetrics.label(refused.kind()));
            return Mono.error(refused);
        }
        return servicePeer()
                .flatMap(connection -> Mono.<Void>create(sink -> {
                    FilterClientExchange exchange = new FilterClientExchange(request, config.maxResponseBytes(), sink);
                    sink.onCancel(exchange::cancel);
                    connection.openStream(FilterConfig.SUBSCRIBE_PROTOCOL_ID, exchange).subscribe(null, e -> sink.error(
                            new FilterRequestException(Kind.PEER_DIAL_FAILURE, e instanceof NegotiationException.NotSupported
                                    ? connection.remotePeer() + " does not serve " + FilterConfig.SUBSCRIBE_PROTOCOL_ID
                                    : target(connection), e)));
                }).doOnSuccess(v -> agreed(type, connection)))
                .timeout(config.requestTimeout(), Mono.error(() -> FilterRequestException.timeout(
                        "no answer from the filter service node within " + config.requestTimeout().toMillis() + " ms")))
                .doOnSuccess(v -> metrics.request(type, FilterClientMetrics.SUCCESS))
                .doOnError(FilterRequestException.class, e -> metrics.request(type, FilterClientMetrics.label(e.kind())))
                .doFinally(signal -> inFlight.decrementAndGet());
    }

    /** The service node agreed: a subscription makes it a peer whose pushes are read, ending them all unmakes it. */
    private void agreed(FilterSubscribeType type, Connection connection) {
        if (type == FilterSubscribeType.SUBSCRIBE) {
            servicePeers.subscribedThrough(connection.remotePeer());
        } else if (type == FilterSubscribeType.UNSUBSCRIBE_ALL) {
            servicePeers.unsubscribedAllAt(connection.remotePeer());
        }
    }

    private String target(Connection connection) {
        return config.serviceNode() != null ? config.serviceNode().toString()
                : connection.remoteAddress() + "/p2p/" + connection.remotePeer();
    }

    /**
     * The {@code --filternode}, dialled (or its connection reused); without one, as nwaku's peer manager selects: a
     * connected peer that said (identify) it serves filter.
     */
    private Mono<Connection> servicePeer() {
        if (config.serviceNode() != null) {
            return host.dial(config.serviceNode()).onErrorMap(e -> !(e instanceof FilterRequestException),
                    e -> new FilterRequestException(Kind.PEER_DIAL_FAILURE, config.serviceNode().toString(), e));
        }
        for (Connection c : host.connections()) {
            Optional<PeerRecord> peer = host.peer(c.remotePeer());
            if (c.isOpen() && peer.isPresent() && peer.get().protocols().contains(FilterConfig.SUBSCRIBE_PROTOCOL_ID)) {
                return Mono.just(c);
            }
        }
        return Mono.error(new FilterRequestException(Kind.SERVICE_UNAVAILABLE, FilterRequestException.NO_SERVICE_PEER));
    }

    /** One refresh: a ping while subscriptions are held; when it fails, every subscription is sent again. */
    Mono<Void> refreshOnce() {
        if (lifecycle.isClosing() || criteria.size() == 0) {
            return Mono.empty();
        }
        return ping().onErrorResume(FilterRequestException.class, e -> {
            if (e.kind() == Kind.TOO_MANY_REQUESTS) {
                return Mono.empty(); // busy, not lost: the next tick pings again
            }
            log.atInfo().addKeyValue("reason", e.getMessage()).addKeyValue("criteria", criteria.size())
                    .log("filter service node ping failed; subscribing again");
            metrics.resubscriptions.increment();
            return Flux.fromIterable(criteria.requests(config.maxContentTopicsPerRequest()))
                    .concatMap(r -> resubscribe(r).onErrorResume(FilterRequestException.class, failed -> {
                        log.atInfo().addKeyValue("topic", r.getKey()).addKeyValue("contentTopics", r.getValue())
                                .addKeyValue("reason", failed.getMessage()).log("filter re-subscription failed");
                        return Mono.empty();
                    }))
                    .then();
        });
    }

    private Mono<Void> resubscribe(Map.Entry<String, List<String>> r) {
        return send(request(FilterSubscribeType.SUBSCRIBE).setPubsubTopic(r.getKey()).addAllContentTopics(r.getValue()).build());
    }

    /** Stops the refresh loop, withdraws the push protocol and removes the meters. Idempotent. */
    public Mono<Void> shutdown(Duration grace) {
        return lifecycle.shutdown(grace, refresh::dispose);
    }

    @Override
    public void close() {
        shutdown(Duration.ZERO).block();
    }

    /** The pushes of every push stream: those that match a held subscription go to the listener. */
    private final class Receiver implements FilterPushReceiver.Pushes {
        @Override
        public void pushed(Stream stream, MessagePush push) {
            String pubsubTopic = push.getPubsubTopic();
            WakuMessage message = push.getWakuMessage();
            if (!push.hasWakuMessage() || !criteria.matches(pubsubTopic, message.getContentTopic())) {
                metrics.push(FilterClientMetrics.UNSOLICITED);
                return;
            }
            try { // the rules of a relayed message: a service node relays nothing it would not relay
                validator.checkPubsubTopic(pubsubTopic);
                validator.checkMessageSize(message.getSerializedSize());
                validator.checkMessage(message, validator.nowNanos());
            } catch (ProtocolViolation e) {
                metrics.push(FilterClientMetrics.INVALID);
                log.atDebug().addKeyValue("peer", String.valueOf(stream.remotePeer())).addKeyValue("reason", e.getMessage())
                        .log("filter push refused");
                return;
            }
            metrics.push(FilterClientMetrics.ACCEPTED);
            try {
                listener.onPush(pubsubTopic, message);
            } catch (RuntimeException e) {
                log.warn("the filter push listener failed", e);
            }
        }

        @Override
        public void refused(Stream stream, String outcome, String why) {
            metrics.push(outcome);
            log.atDebug().addKeyValue("peer", String.valueOf(stream.remotePeer())).addKeyValue("reason", why)
                    .log("filter push refused");
        }
    }
}
