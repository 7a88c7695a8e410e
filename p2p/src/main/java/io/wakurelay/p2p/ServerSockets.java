package io.wakurelay.p2p;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.ServerSocketChannel;
import io.wakurelay.p2p.connection.Transport;
import reactor.netty.resources.LoopResources;

import java.net.InetSocketAddress;
import java.util.function.BiConsumer;

/** The host's sockets on Netty: the server channels it listens on, and the write bounds of every connection. */
final class ServerSockets {
    private ServerSockets() {
    }

    /**
     * A server channel bound on {@code address}, each socket it accepts handed to {@code accept} with its transport.
     *
     * @throws ListenFailedException when the address cannot be bound (in use, not on this machine)
     */
    static Channel bind(LoopResources loops, boolean nativeTransport, EventLoopGroup group, HostConfig config,
                        InetSocketAddress address, Transport transport, BiConsumer<Channel, Transport> accept) {
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(loops.onServerSelect(nativeTransport), group)
                .channel(loops.onChannelClass(ServerSocketChannel.class, group))
                .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, waterMark(config))
                .childHandler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel channel) {
                        accept.accept(channel, transport);
                    }
                });
        // awaited rather than synced: a failed bind rethrows Netty's checked NativeIoException, which would pass by the
        // callers' clean-up of RuntimeExceptions
        ChannelFuture bound = bootstrap.bind(address).awaitUninterruptibly();
        if (!bound.isSuccess()) {
            throw new ListenFailedException(address, transport, bound.cause());
        }
        return bound.channel();
    }

    /** A connection's write buffer bounds: writable again below half of {@code --write-buffer-high-water}. */
    static WriteBufferWaterMark waterMark(HostConfig config) {
        return new WriteBufferWaterMark(config.writeBufferHighWater() / 2, config.writeBufferHighWater());
    }
}
