package io.wakurelay.node.peers;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.resolver.ResolvedAddressTypes;
import io.netty.resolver.dns.DnsNameResolver;
import io.netty.resolver.dns.DnsNameResolverBuilder;
import io.netty.resolver.dns.DnsServerAddressStreamProviders;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * DNS names of discovered records resolved asynchronously with Netty's resolver, on one event loop thread of its own,
 * against the system's name servers, each query bounded by {@code timeout}, answers cached for their TTL. No thread
 * ever waits for a name server (the host's own dial resolves a name with the JDK's blocking call on a shared
 * scheduler; discovered records never reach it with a name). {@link #close()} ends the thread.
 */
final class NettyNameResolver implements NameResolver, AutoCloseable {
    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final DnsNameResolver resolver;

    NettyNameResolver(Duration timeout) {
        this.resolver = new DnsNameResolverBuilder(group.next())
                .datagramChannelType(NioDatagramChannel.class)
                .nameServerProvider(DnsServerAddressStreamProviders.platformDefault())
                .resolvedAddressTypes(ResolvedAddressTypes.IPV4_PREFERRED)
                .queryTimeoutMillis(timeout.toMillis())
                .build();
    }

    @Override
    public CompletableFuture<List<InetAddress>> resolve(String name) {
        CompletableFuture<List<InetAddress>> result = new CompletableFuture<>();
        resolver.resolveAll(name).addListener(f -> {
            if (f.isSuccess()) {
                @SuppressWarnings("unchecked")
                List<InetAddress> addresses = (List<InetAddress>) f.getNow();
                result.complete(List.copyOf(addresses));
            } else {
                result.completeExceptionally(f.cause());
            }
        });
        return result;
    }

    @Override
    public void close() {
        resolver.close();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }
}
