package io.wakurelay.services;

import io.micrometer.core.instrument.MeterRegistry;
import io.wakurelay.p2p.Host;
import io.wakurelay.p2p.connection.ProtocolHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * The start and shutdown skeleton every service and service client repeats, held once: the meters it registers
 * ({@link #meters()}, removed at shutdown, so that a restarted component registers them again), the protocols it
 * serves on the host ({@link #serve}, withdrawn at shutdown, so that new streams are refused during negotiation), the
 * flag its requests check ({@link #isClosing()}: requests on streams already open are answered "shutting down"), and
 * one shutdown, run once whoever asks: closing, protocols withdrawn, what runs drained within the grace, what the
 * component holds released, meters removed, a line in the owner's log.
 */
public final class ServiceLifecycle {
    private final Logger log;
    private final String name;
    private final Host host;
    private final Meters meters;
    private final boolean service;
    private final List<String> served = new CopyOnWriteArrayList<>();
    private volatile boolean closing;
    private Mono<Void> shutdown;

    private ServiceLifecycle(Class<?> owner, String name, Host host, MeterRegistry registry, boolean service) {
        this.log = LoggerFactory.getLogger(owner);
        this.name = Objects.requireNonNull(name, "name");
        this.host = Objects.requireNonNull(host, "host");
        this.meters = new Meters(Objects.requireNonNull(registry, "registry"));
        this.service = service;
    }

    /** A service's ({@code owner} logs "store service shut down" at INFO). */
    public static ServiceLifecycle service(Class<?> owner, String name, Host host, MeterRegistry registry) {
        return new ServiceLifecycle(owner, name, host, registry, true);
    }

    /** A service client's ({@code owner} logs "store client shut down" at DEBUG). */
    public static ServiceLifecycle client(Class<?> owner, String name, Host host, MeterRegistry registry) {
        return new ServiceLifecycle(owner, name, host, registry, false);
    }

    /** Where the component registers its meters: each one added here is removed at shutdown. */
    public Meters meters() {
        return meters;
    }

    /** Serves {@code protocolId} on the host until shutdown (identify advertises it meanwhile). */
    public void serve(String protocolId, ProtocolHandler handler) {
        served.add(protocolId);
        host.handle(protocolId, handler);
    }

    /** True once shutdown began: what arrives now is refused. */
    public boolean isClosing() {
        return closing;
    }

    /** {@link #shutdown(Duration, Function, Runnable)} with nothing to wait for. */
    public Mono<Void> shutdown(Duration grace, Runnable release) {
        return shutdown(grace, g -> Mono.empty(), release);
    }

    /**
     * Shuts down once, whoever asks and however often (every call returns the same completion): closing at once, the
     * protocols withdrawn, then {@code drain} (given the grace; its end, error or not, is awaited), then
     * {@code release} and the meters removed.
     *
     * @param drain   what runs may finish: completes when it has, or when the grace is over
     * @param release gives back what the component holds (threads, subscriptions, listeners)
     */
    public Mono<Void> shutdown(Duration grace, Function<Duration, Mono<Void>> drain, Runnable release) {
        Objects.requireNonNull(grace, "grace");
        return Mono.defer(() -> {
            synchronized (this) {
                if (shutdown == null) {
                    closing = true;
                    served.forEach(host::unhandle);
                    shutdown = drain.apply(grace).onErrorResume(e -> Mono.empty())
                            .then(Mono.fromRunnable(() -> {
                                try {
                                    release.run();
                                } finally {
                                    meters.removeAll();
                                    if (service) {
                                        log.atInfo().addKeyValue("service", name).log("service shut down");
                                    } else {
                                        log.atDebug().addKeyValue("service", name).log("service shut down");
                                    }
                                }
                            }))
                            .then()
                            .cache();
                }
                return shutdown;
            }
        });
    }
}
