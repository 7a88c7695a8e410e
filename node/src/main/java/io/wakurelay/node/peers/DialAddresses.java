package io.wakurelay.node.peers;

import io.wakurelay.p2p.multiaddr.Multiaddr;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The addresses of a discovered record the peer manager may dial, by its {@link DialPolicy}. An IP address is judged
 * when the record is offered ({@link #literal}): a record whose every address is refused is not kept. A DNS name
 * ({@code /dns}, {@code /dns4}, {@code /dns6}) is resolved when the peer is dialled ({@link #resolve}), without
 * blocking, within {@code timeout}, and each address it gives is judged the same way (a public name may point at a
 * private address); those allowed are dialled as IP addresses, at most {@link #MAX_PER_NAME} of a name, a secure
 * WebSocket one keeping the name for TLS ({@code /tls/sni/<name>/ws}), as go-libp2p's WebSocket transport resolves.
 * Each refused address is counted by its scope ({@code unresolved} for a name that did not resolve).
 */
final class DialAddresses {
    private static final Logger log = LoggerFactory.getLogger(DialAddresses.class);
    /** A name's addresses dialled at most, in the resolver's order. */
    static final int MAX_PER_NAME = 4;
    static final String UNRESOLVED = "unresolved";

    private final DialPolicy policy;
    private final NameResolver resolver;
    private final Duration timeout;
    private final Consumer<String> refused;

    /** @param refused told the reason of each address refused: an {@link AddressScope#label()} or {@link #UNRESOLVED} */
    DialAddresses(DialPolicy policy, NameResolver resolver, Duration timeout, Consumer<String> refused) {
        this.policy = policy;
        this.resolver = resolver;
        this.timeout = timeout;
        this.refused = refused;
    }

    DialPolicy policy() {
        return policy;
    }

    /** The TCP and WebSocket addresses of a record that may be kept: names, and IP addresses the policy allows. */
    List<Multiaddr> literal(List<Multiaddr> addresses) {
        List<Multiaddr> kept = new ArrayList<>(addresses.size());
        for (Multiaddr a : addresses) {
            if (!(a.isTcp() || a.isWebSocket())) {
                continue;
            }
            if (a.dnsHost().isPresent()) {
                kept.add(a);
                continue;
            }
            AddressScope scope = AddressScope.of(a.toSocketAddress().getAddress());
            if (policy.allows(scope)) {
                kept.add(a);
            } else {
                refused.accept(scope.label());
            }
        }
        return kept;
    }

    /** The candidate's addresses to dial, in order, each name resolved and judged. */
    Flux<Multiaddr> resolve(List<Multiaddr> addresses) {
        return Flux.fromIterable(addresses).concatMap(a -> a.dnsHost().isPresent() ? resolveName(a, a.dnsHost().get())
                : Flux.just(a));
    }

    private Flux<Multiaddr> resolveName(Multiaddr address, String name) {
        boolean v4 = address.toString().startsWith("/dns4/");
        boolean v6 = address.toString().startsWith("/dns6/");
        return Mono.fromFuture(() -> resolver.resolve(name))
                .timeout(timeout)
                .onErrorResume(e -> {
                    log.atDebug().addKeyValue("address", String.valueOf(name)).addKeyValue("reason", e.toString())
                            .log("peer manager: a name does not resolve");
                    refused.accept(UNRESOLVED);
                    return Mono.just(List.of());
                })
                .flatMapMany(Flux::fromIterable)
                .filter(ip -> v4 ? AddressScope.isIpv4(ip) : !v6 || !AddressScope.isIpv4(ip))
                .filter(ip -> {
                    AddressScope scope = AddressScope.of(ip);
                    if (!policy.allows(scope)) {
                        log.atDebug().addKeyValue("ip", ip.getHostAddress()).addKeyValue("address", String.valueOf(address))
                                .addKeyValue("reason", scope.label()).log("peer manager: address not dialled");
                        refused.accept(scope.label());
                        return false;
                    }
                    return true;
                })
                .take(MAX_PER_NAME)
                .map(ip -> at(address, name, ip));
    }

    /** {@code address} with its DNS name replaced by {@code ip}; a secure WebSocket address keeps the name for TLS. */
    static Multiaddr at(Multiaddr address, String name, InetAddress ip) {
        String text = address.toString();
        String rest = text.substring(text.indexOf('/', text.indexOf('/', 1) + 1)); // after /dnsX/<name>
        if (address.isSecureWebSocket() && !text.contains("/sni/")) {
            int peer = rest.indexOf("/p2p/");
            String transport = peer < 0 ? rest : rest.substring(0, peer);
            String sni = "/tls/sni/" + name + "/ws";
            rest = transport.replace("/wss", sni).replace("/tls/ws", sni) + (peer < 0 ? "" : rest.substring(peer));
        }
        return Multiaddr.parse((ip instanceof Inet6Address ? "/ip6/" : "/ip4/") + unscoped(ip) + rest);
    }

    private static String unscoped(InetAddress ip) {
        try {
            return InetAddress.getByAddress(ip.getAddress()).getHostAddress();
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e); // cannot happen: 4 or 16 bytes
        }
    }
}
