package io.wakurelay.services.filter;

import io.micrometer.core.instrument.MeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.wakurelay.p2p.connection.Connection;
import io.wakurelay.p2p.ConnectionListener;
import io.wakurelay.p2p.Host;
import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.relay.Relay;
import io.wakurelay.services.PeerRateLimiter;
import io.wakurelay.services.ServerExchange;
import io.wakurelay.services.ServiceLifecycle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The filter v2 server (rfc-index core/12): light clients subscribe to (pubsub topic, content topics) on
 * {@value FilterConfig#SUBSCRIBE_PROTOCOL_ID}, and every message this node accepts that matches is pushed to them
 * on {@value FilterConfig#PUSH_PROTOCOL_ID} streams this node opens. The node hands each accepted envelope to
 * {@link #onAccepted}. Bounded by {@link FilterConfig}: subscribers, criteria per subscriber, content topics per
 * request, per-peer request rate; a subscription not refreshed in time expires; a subscriber that does not take its
 * pushes has them dropped (counted) and, stuck, loses its subscription. A subscriber's subscription also ends with
 * its connection (this node never dials light clients).
 *
 * <p>Started, it serves the subscribe protocol on the host (and identify advertises it); shut down, it no longer does.
 */
public final class FilterService implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(FilterService.class);
    private static final Duration MAX_SWEEP_INTERVAL = Duration.ofMinutes(1);
    private static final Duration MIN_SWEEP_INTERVAL = Duration.ofMillis(100);

    private final FilterConfig config;
    private final Relay relay;
    private final Host host;
    private final ServiceLifecycle lifecycle;
    private final FilterMetrics metrics;
    private final FilterSubscriptions subscriptions;
    private final PeerRateLimiter rateLimiter;
    private final ByteBufAllocator alloc = PooledByteBufAllocator.DEFAULT;
    private final Scheduler maintenance;
    private final Disposable sweeper;
    private final ConnectionListener listener = new ConnectionListener() {
        @Override
        public void onDisconnected(Connection connection) {
            subscriptions.disconnected(connection.remotePeer(), connection);
        }
    };

    private FilterService(FilterConfig config, Host host, Relay relay, MeterRegistry registry) {
        this.config = config;
        this.relay = relay;
        this.host = host;
        this.lifecycle = ServiceLifecycle.service(FilterService.class, "filter service", host, registry);
        this.subscriptions = new FilterSubscriptions(config, System::nanoTime, this::removed);
        this.metrics = new FilterMetrics(lifecycle.meters(), subscriptions::subscriberCount,
                subscriptions::criteriaCount);
        this.rateLimiter = new PeerRateLimiter(config.rateLimit(), System::nanoTime);
        this.maintenance = Schedulers.newSingle("filter-maintenance", true);
        long interval = sweepInterval(config.subscriptionTimeout()).toNanos();
        this.sweeper = maintenance.schedulePeriodically(this::sweep, interval, interval, TimeUnit.NANOSECONDS);
    }

    /** Half the timeout (so an expired subscription goes within 1.5 timeouts), between 100 ms and a minute. */
    static Duration sweepInterval(Duration timeout) {
        Duration half = timeout.dividedBy(2);
        return half.compareTo(MIN_SWEEP_INTERVAL) < 0 ? MIN_SWEEP_INTERVAL
                : half.compareTo(MAX_SWEEP_INTERVAL) > 0 ? MAX_SWEEP_INTERVAL : half;
    }

    /**
     * Starts serving {@value FilterConfig#SUBSCRIBE_PROTOCOL_ID} on {@code host}; subscriptions are judged by
     * {@code relay}'s topic limits and may name any pubsub topic, as in nwaku (messages come once the node relays it).
     *
     * @param registry where the service registers its meters (docs/services.md); removed at shutdown
     */
    public static FilterService start(FilterConfig config, Host host, Relay relay, MeterRegistry registry) {
        FilterService service = new FilterService(Objects.requireNonNull(config, "config"),
                Objects.requireNonNull(host, "host"), Objects.requireNonNull(relay, "relay"),
                Objects.requireNonNull(registry, "registry"));
        host.addListener(service.listener);
        service.lifecycle.serve(FilterConfig.SUBSCRIBE_PROTOCOL_ID, stream -> new FilterExchange(service));
        log.atInfo().addKeyValue("protocol", FilterConfig.SUBSCRIBE_PROTOCOL_ID)
                .addKeyValue("maxPeersToServe", config.maxPeersToServe())
                .addKeyValue("maxCriteriaPerPeer", config.maxCriteriaPerPeer())
                .addKeyValue("subscriptionTimeout", String.valueOf(config.subscriptionTimeout())).log("filter service started");
        return service;
    }

    /**
     * Pushes {@code envelope} to the subscribers of its pubsub and content topic. Call it for every envelope this
     * node accepts, from any thread (one call at a time). It never blocks, and it keeps nothing of the envelope:
     * the push frame is a copy of its message bytes, shared by the subscribers' queues.
     */
    public void onAccepted(Envelope envelope) {
        if (lifecycle.isClosing()) {
            return;
        }
        try {
            FilterSubscriber[] subscribers = subscriptions.subscribersOf(envelope.pubsubTopic(), envelope.message().contentTopic());
            if (subscribers.length == 0) {
                return;
            }
            long start = System.nanoTime();
            long timeout = config.subscriptionTimeout().toNanos();
            ByteBuf frame = FilterPushFrame.encode(alloc, envelope);
            try {
                for (FilterSubscriber s : subscribers) {
                    if (!s.isExpired(start, timeout)) {
                        s.channel().offer(frame);
                    }
                }
            } finally {
                frame.release();
            }
            metrics.handleMessage.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        } catch (RuntimeException e) {
            log.atWarn().addKeyValue("hash", String.valueOf(envelope.hash())).setCause(e).log("filter push failed");
        }
    }

    /** Subscribed peers now. */
    public int subscriberCount() {
        return subscriptions.subscriberCount();
    }

    /**
     * What each subscriber is subscribed to now: peer → its (pubsub topic, content topic) pairs, each a list of two.
     * A copy, bounded by the config's {@code maxPeersToServe} and {@code maxCriteriaPerPeer}.
     */
    public Map<PeerId, List<List<String>>> subscribedCriteria() {
        return subscriptions.snapshot();
    }

    public FilterConfig config() {
        return config;
    }

    /** A push channel on {@code connection} that, when its subscriber must go, removes it if it still uses this connection. */
    FilterPushChannel newChannel(Connection connection) {
        return new FilterPushChannel(connection, config, metrics, reason -> {
            FilterSubscriber s = subscriptions.subscriber(connection.remotePeer());
            if (s != null && s.channel().connection() == connection) {
                subscriptions.remove(s, reason);
            }
        });
    }

    private void removed(FilterSubscriber subscriber, FilterRemoval reason) {
        metrics.removed(reason);
        subscriber.channel().close(reason != FilterRemoval.STUCK);
        log.atDebug().addKeyValue("peer", String.valueOf(subscriber.peer)).addKeyValue("reason", reason.label())
                .log("filter subscriber removed");
    }

    private void sweep() {
        try {
            int expired = subscriptions.removeExpired();
            if (expired > 0) {
                log.atDebug().addKeyValue("subscriptions", expired).log("filter subscriptions expired");
            }
        } catch (RuntimeException e) {
            log.warn("filter maintenance failed", e);
        }
    }

    FilterMetrics metrics() {
        return metrics;
    }

    FilterSubscriptions subscriptions() {
        return subscriptions;
    }

    /** What bounds each of its exchanges: request size, time, each peer's rate. */
    ServerExchange.Limits exchangeLimits() {
        return new ServerExchange.Limits(config.maxRequestBytes(), config.requestTimeout(), rateLimiter, metrics.service);
    }

    int maxTopicBytes() {
        return relay.config().limits().maxTopicBytes();
    }

    int maxContentTopicBytes() {
        return relay.config().limits().maxContentTopicBytes();
    }

    boolean isClosing() {
        return lifecycle.isClosing();
    }

    /**
     * Stops serving: the subscribe protocol is no longer offered, every subscription ends (push streams are closed
     * after what they hold), and the meters are removed. Idempotent.
     */
    public Mono<Void> shutdown(Duration grace) {
        return lifecycle.shutdown(grace, () -> {
            host.removeListener(listener);
            sweeper.dispose();
            maintenance.dispose();
            subscriptions.removeAll(FilterRemoval.SHUTDOWN);
        });
    }

    @Override
    public void close() {
        shutdown(Duration.ZERO).block();
    }
}
