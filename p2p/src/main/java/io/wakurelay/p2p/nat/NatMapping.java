package io.wakurelay.p2p.nat;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The ports of this host mapped at the gateway, as nwaku maps them (its {@code setupNat}, nim-eth's
 * {@code eth/net/nat.nim}): {@link #start} finds a gateway (UPnP, then NAT-PMP for {@code any}), asks its external
 * address, and maps each port; a thread of its own asks for every mapping again each {@code renewInterval};
 * {@link #shutdown} deletes the mappings this host made. Blocking, on the caller's thread: the node starts it before
 * its host listens, never on an event loop. Nothing here stops the node: a gateway that cannot be found, or refuses,
 * leaves it announcing what nwaku announces then ({@link NatState}), with a warning and a counted failure.
 */
public final class NatMapping implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(NatMapping.class);

    /** How the gateways of a method are found, in the order they are tried. */
    interface Finder {
        /** The gateway, or empty when none answered. */
        Optional<NatGateway> find() throws NatException;

        String protocol();
    }

    private final NatConfig config;
    private final NatMetrics metrics;
    private final NatGateway gateway; // null when unavailable
    private final InetAddress external; // null when unavailable
    private final List<MappedPort> mapped = new ArrayList<>(); // guarded by this
    private final ScheduledExecutorService renewal;
    private boolean stopped; // guarded by this

    private NatMapping(NatConfig config, NatMetrics metrics, NatGateway gateway, InetAddress external,
                       List<MappedPort> mapped) {
        this.config = config;
        this.metrics = metrics;
        this.gateway = gateway;
        this.external = external;
        this.mapped.addAll(mapped);
        this.renewal = mapped.stream().anyMatch(MappedPort::ours) ? Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "nat-renewal");
            t.setDaemon(true);
            return t;
        }) : null;
        if (renewal != null) {
            long every = config.renewInterval().toMillis();
            renewal.scheduleWithFixedDelay(this::renew, every, every, TimeUnit.MILLISECONDS);
        }
        count();
    }

    /** Maps {@code ports} at the gateway that {@code config.method()} finds on the network this host is on. */
    public static NatMapping start(NatConfig config, List<NatPort> ports, NatMetrics metrics) {
        Finder upnp = new Finder() {
            @Override
            public Optional<NatGateway> find() throws NatException {
                return UpnpGateway.discover(config, Ssdp.MULTICAST).map(g -> g);
            }

            @Override
            public String protocol() {
                return "upnp";
            }
        };
        Finder pmp = new Finder() {
            @Override
            public Optional<NatGateway> find() throws NatException {
                return Optional.of(PmpGateway.ofDefaultRoute(config));
            }

            @Override
            public String protocol() {
                return "pmp";
            }
        };
        List<Finder> finders = switch (config.method()) {
            case ANY -> List.of(upnp, pmp);
            case UPNP -> List.of(upnp);
            case PMP -> List.of(pmp);
        };
        return start(config, ports, metrics, finders);
    }

    static NatMapping start(NatConfig config, List<NatPort> ports, NatMetrics metrics, List<Finder> finders) {
        List<String> why = new ArrayList<>();
        for (Finder finder : finders) {
            NatGateway gateway;
            try {
                Optional<NatGateway> found = finder.find();
                if (found.isEmpty()) {
                    log.atInfo().addKeyValue("gateway", finder.protocol()).log("NAT: no gateway answered");
                    why.add(finder.protocol() + ": no gateway answered");
                    metrics.failed(NatMetrics.Operation.DISCOVER);
                    continue;
                }
                gateway = found.get();
            } catch (NatException e) {
                log.atInfo().addKeyValue("gateway", finder.protocol()).addKeyValue("reason", e.getMessage())
                        .log("NAT: no gateway");
                why.add(finder.protocol() + ": " + e.getMessage());
                metrics.failed(NatMetrics.Operation.DISCOVER);
                continue;
            }
            InetAddress external;
            try {
                external = gateway.externalAddress();
            } catch (NatException e) {
                log.atInfo().addKeyValue("gateway", gateway.describe()).addKeyValue("reason", e.getMessage())
                        .log("NAT: the gateway gives no external address");
                why.add(gateway.describe() + " gives no external address: " + e.getMessage());
                metrics.failed(NatMetrics.Operation.EXTERNAL_ADDRESS);
                continue; // nim-eth's getExternalIP: UPnP, then NAT-PMP
            }
            return mapAll(config, ports, metrics, gateway, external);
        }
        log.atWarn().addKeyValue("nat", config.method().label()).addKeyValue("reason", String.join("; ", why))
                .log("NAT: no gateway maps ports here: the node announces its bound address, as nwaku does; "
                        + "with the port forwarded by hand, give --nat=extip:<public IP>");
        metrics.state(NatState.UNAVAILABLE);
        return new NatMapping(config, metrics, null, null, List.of());
    }

    private static NatMapping mapAll(NatConfig config, List<NatPort> ports, NatMetrics metrics, NatGateway gateway,
                                     InetAddress external) {
        metrics.gateway(gateway.protocol());
        if (external.isSiteLocalAddress() || external.isLoopbackAddress() || external.isLinkLocalAddress()) {
            log.atWarn().addKeyValue("address", external.getHostAddress())
                    .log("NAT: the gateway's external address is private: another NAT is beyond it, and peers outside "
                            + "cannot reach this node at it");
        }
        List<MappedPort> mapped = new ArrayList<>();
        List<String> refused = new ArrayList<>();
        for (NatPort port : ports) {
            try {
                mapped.add(gateway.map(port, port.internalPort()));
            } catch (NatException e) {
                metrics.failed(NatMetrics.Operation.MAP);
                refused.add(port + ": " + e.getMessage());
            }
        }
        NatState state = mapped.size() == ports.size() ? NatState.MAPPED : NatState.EXTERNAL_ADDRESS_ONLY;
        metrics.state(state);
        log.atInfo().addKeyValue("gateway", gateway.describe()).addKeyValue("address", external.getHostAddress())
                .addKeyValue("mapped", mapped.stream().map(String::valueOf).toList())
                .addKeyValue("leaseSeconds", gateway.protocol().equals("pmp") ? config.pmpLifetime().toSeconds()
                        : config.upnpLease().toSeconds())
                .addKeyValue("renewSeconds", config.renewInterval().toSeconds()).log("NAT: ports mapped");
        if (!refused.isEmpty()) {
            log.atWarn().addKeyValue("refused", refused).addKeyValue("address", external.getHostAddress())
                    .log("NAT: the gateway did not map every port: the node announces the address with the bound port "
                            + "of each, as nwaku does (forward them by hand)");
        }
        return new NatMapping(config, metrics, gateway, external, mapped);
    }

    public NatState state() {
        return metrics.state();
    }

    /** The gateway's external address; empty when no gateway gave one ({@link NatState#UNAVAILABLE}). */
    public Optional<InetAddress> externalAddress() {
        return Optional.ofNullable(external);
    }

    /** The port peers reach {@code port} at: the gateway's when it maps it, else the bound one (nwaku's). */
    public synchronized int externalPort(NatPort port) {
        return mapped.stream().filter(m -> m.port().equals(port)).mapToInt(MappedPort::externalPort).findFirst()
                .orElse(port.internalPort());
    }

    public synchronized List<MappedPort> mapped() {
        return List.copyOf(mapped);
    }

    /** Asks for every mapping of ours again: a gateway that restarted, or let a lease lapse, has them back. */
    synchronized void renew() {
        if (stopped) {
            return;
        }
        for (int i = 0; i < mapped.size(); i++) {
            MappedPort m = mapped.get(i);
            if (!m.ours()) {
                continue;
            }
            try {
                MappedPort again = gateway.map(m.port(), m.externalPort());
                metrics.renewed();
                if (again.externalPort() != m.externalPort()) {
                    log.atWarn().addKeyValue("mapping", String.valueOf(m)).addKeyValue("externalPort", again.externalPort())
                            .log("NAT: the gateway moved a mapping to another external port: the announced address "
                                    + "names the old one until the node restarts");
                }
                if (again.ours()) {
                    mapped.set(i, again);
                }
            } catch (NatException e) {
                metrics.failed(NatMetrics.Operation.RENEW);
                log.atWarn().addKeyValue("gateway", gateway.describe()).addKeyValue("mapping", String.valueOf(m))
                        .addKeyValue("reason", e.getMessage())
                        .addKeyValue("renewSeconds", config.renewInterval().toSeconds())
                        .log("NAT: renewing a mapping failed; tried again at the next renewal");
            } catch (RuntimeException e) {
                metrics.failed(NatMetrics.Operation.RENEW);
                log.atWarn().addKeyValue("mapping", String.valueOf(m)).setCause(e).log("NAT: renewing a mapping failed");
            }
        }
        count();
    }

    private synchronized void count() {
        for (NatPort.Protocol p : NatPort.Protocol.values()) {
            metrics.mapped(p, (int) mapped.stream().filter(m -> m.port().protocol() == p).count());
        }
    }

    /** Stops renewing, then deletes the mappings this host made, within {@code grace}. */
    public Mono<Void> shutdown(Duration grace) {
        return Mono.<Void>fromRunnable(() -> stop(grace)).subscribeOn(Schedulers.boundedElastic());
    }

    private void stop(Duration grace) {
        long deadline = System.nanoTime() + grace.toNanos();
        if (renewal != null) {
            renewal.shutdownNow();
            try {
                // a renewal under way ends within its exchanges' timeouts
                renewal.awaitTermination(Math.min(grace.toMillis(), config.httpTimeout().toMillis() * 2),
                        TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        synchronized (this) {
            if (stopped) {
                return;
            }
            stopped = true;
            for (MappedPort m : mapped) {
                if (!m.ours()) {
                    continue;
                }
                if (System.nanoTime() >= deadline) {
                    log.atWarn().addKeyValue("mapping", String.valueOf(m)).log("NAT: no time left to delete a mapping at the gateway");
                    metrics.failed(NatMetrics.Operation.UNMAP);
                    continue;
                }
                try {
                    gateway.unmap(m);
                    log.atInfo().addKeyValue("mapping", String.valueOf(m)).addKeyValue("gateway", gateway.describe())
                            .log("NAT: mapping deleted");
                } catch (NatException e) {
                    metrics.failed(NatMetrics.Operation.UNMAP);
                    log.atWarn().addKeyValue("mapping", String.valueOf(m)).addKeyValue("reason", e.getMessage())
                            .log("NAT: deleting a mapping failed");
                }
            }
            mapped.clear();
            count();
            metrics.state(NatState.OFF);
            metrics.gateway("");
        }
    }

    /** Deletes the mappings (a start that failed after this one): within twice an exchange's timeout per port. */
    @Override
    public void close() {
        stop(config.httpTimeout().multipliedBy(2L * Math.max(1, mapped().size())));
    }
}
