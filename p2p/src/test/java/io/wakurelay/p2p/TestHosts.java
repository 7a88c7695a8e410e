package io.wakurelay.p2p;

import io.wakurelay.p2p.connection.Transport;
import io.wakurelay.p2p.echo.EchoClient;
import io.wakurelay.p2p.echo.EchoProtocol;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.p2p.multiaddr.Multiaddr;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/** Hosts on loopback for one test, closed together. */
final class TestHosts implements AutoCloseable {
    private final List<Host> hosts = new ArrayList<>();
    final List<SimpleMeterRegistry> registries = new ArrayList<>();

    static HostConfigBuilder loopback() {
        return HostConfig.builder().listenAddress(new InetSocketAddress("127.0.0.1", 0))
                .handshakeTimeout(Duration.ofSeconds(5)).redialMinBackoff(Duration.ofMillis(100))
                .redialMaxBackoff(Duration.ofSeconds(1));
    }

    Host start() {
        return start(b -> b);
    }

    Host start(UnaryOperator<HostConfigBuilder> config) {
        return start(config, PrivateKey.generateEd25519());
    }

    Host start(UnaryOperator<HostConfigBuilder> config, PrivateKey key) {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Host host = Host.start(config.apply(loopback()).build(), key, registry);
        host.handle(EchoProtocol.ID, EchoProtocol.server());
        hosts.add(host);
        registries.add(registry);
        return host;
    }

    SimpleMeterRegistry registry(Host host) {
        return registries.get(hosts.indexOf(host));
    }

    static Multiaddr address(Host host) {
        return host.listenAddresses().get(0);
    }

    /** The host's first announced WebSocket address ({@code /ws} or {@code /wss}), with its peer id. */
    static Multiaddr webSocketAddress(Host host) {
        return host.listenAddresses().stream().filter(Multiaddr::isWebSocket).findFirst().orElseThrow();
    }

    /** The counters of {@code name} whose {@code tag} is {@code value}, summed over their other labels (transport). */
    static double count(SimpleMeterRegistry registry, String name, String tag, String value) {
        return registry.find(name).tag(tag, value).counters().stream().mapToDouble(c -> c.count()).sum();
    }

    /** One counter of {@code name} whose {@code tag} is {@code value} and whose {@code transport} is {@code transport}. */
    static double count(SimpleMeterRegistry registry, String name, String tag, String value, Transport transport) {
        var c = registry.find(name).tag(tag, value).tag("transport", transport.label()).counter();
        return c == null ? 0 : c.count();
    }

    static double gauge(SimpleMeterRegistry registry, String name, String tag, String value) {
        var g = registry.find(name).tag(tag, value).gauge();
        return g == null ? Double.NaN : g.value();
    }

    /**
     * The direct memory {@code PooledByteBufAllocator.DEFAULT} has handed out and not had back, in its chunks (what
     * its threads' caches keep included). Its {@code usedDirectMemory()} counts whole 4 MiB chunks, one or more for
     * each of the event loops' arenas, too coarse for a bound of a few MiB.
     */
    static long pooledBytesInUse() {
        long used = 0;
        for (var a : io.netty.buffer.PooledByteBufAllocator.DEFAULT.metric().directArenas()) {
            for (var list : a.chunkLists()) {
                for (var c : list) {
                    used += c.chunkSize() - c.freeBytes();
                }
            }
        }
        return used;
    }

    @Override
    public void close() {
        hosts.forEach(Host::close);
    }
}
