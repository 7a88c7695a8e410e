package io.wakurelay.loadgen;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.ReferenceCountUtil;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A one-way delay on chosen links between in-process nodes, and optionally a bandwidth: for each link a TCP proxy on
 * 127.0.0.1 that forwards every byte either way {@code delay} after it read it. The dialling node connects to the
 * proxy instead of the node it dials, so each direction of that connection, everything Noise, yamux and gossipsub
 * write, arrives {@code delay} late, as over a network with that one-way latency (no loss). With a bandwidth, each
 * direction is also a line that sends one byte after another at that rate: what is read waits for the bytes before it
 * to have gone out, then takes its own size over the rate, then the delay (serialisation, then propagation).
 *
 * <p>Nothing waits on an event loop: a read is scheduled for writing on the same event loop as both sockets of the
 * link, so the bytes keep their order (deadlines in reading order). What is in flight per direction is bounded: past
 * {@value #HIGH_WATER_BYTES} bytes (with a bandwidth, twice the bytes the line carries in one delay, at least
 * {@value #MIN_HIGH_WATER_BYTES}: a router's buffer, not a backlog of seconds) the proxy stops reading that side
 * until it is below half that, and TCP's own flow control holds the writer back, as a full network path would.
 *
 * <p>The proxies run on threads of their own ({@value #THREAD_PREFIX}*): {@link #cpuNanos()} is their CPU time,
 * which a scenario subtracts from its nodes' so that the delay's cost is not counted as the nodes'.
 */
final class LinkDelay implements AutoCloseable {
    static final String THREAD_PREFIX = "loadgen-link-delay-";
    static final int HIGH_WATER_BYTES = 16 << 20;
    static final int MIN_HIGH_WATER_BYTES = 256 << 10;

    private final long delayNanos;
    private final long bitsPerSecond; // 0: no limit
    private final long highWater;
    private final List<Thread> threads = new CopyOnWriteArrayList<>();
    private final EventLoopGroup group;
    private final List<Channel> servers = new CopyOnWriteArrayList<>();

    LinkDelay(Duration delay, int threadCount) {
        this(delay, 0, threadCount);
    }

    /** @param bitsPerSecond each direction's bandwidth; 0 for none */
    LinkDelay(Duration delay, long bitsPerSecond, int threadCount) {
        if (delay.isNegative() || bitsPerSecond < 0) {
            throw new IllegalArgumentException("a link delay and bandwidth cannot be negative: " + delay + ", " + bitsPerSecond);
        }
        this.delayNanos = delay.toNanos();
        this.bitsPerSecond = bitsPerSecond;
        this.highWater = bitsPerSecond == 0 ? HIGH_WATER_BYTES
                : Math.max(MIN_HIGH_WATER_BYTES, Math.min(HIGH_WATER_BYTES, 2 * bitsPerSecond / 8 * delay.toMillis() / 1000));
        AtomicInteger n = new AtomicInteger();
        this.group = new NioEventLoopGroup(threadCount, r -> {
            Thread t = new Thread(r, THREAD_PREFIX + n.getAndIncrement());
            t.setDaemon(true);
            threads.add(t);
            return t;
        });
    }

    /** A new link to {@code target}: the address to dial instead of it. */
    InetSocketAddress link(InetSocketAddress target) {
        Channel server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childOption(ChannelOption.AUTO_READ, false) // until the link's other side is connected
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel inbound) {
                        connect(inbound, target);
                    }
                })
                .bind(new InetSocketAddress("127.0.0.1", 0)).syncUninterruptibly().channel();
        servers.add(server);
        return (InetSocketAddress) server.localAddress();
    }

    private void connect(SocketChannel inbound, InetSocketAddress target) {
        Delayed toTarget = new Delayed();
        Delayed back = new Delayed();
        inbound.pipeline().addLast(toTarget);
        new Bootstrap().group(inbound.eventLoop()).channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.AUTO_READ, false) // until it knows where to forward
                .handler(back)
                .connect(target).addListener((ChannelFutureListener) f -> {
                    if (!f.isSuccess()) {
                        inbound.close();
                        return;
                    }
                    toTarget.peer = f.channel();
                    back.peer = inbound;
                    inbound.config().setAutoRead(true);
                    f.channel().config().setAutoRead(true);
                });
    }

    /** CPU time of the proxies' threads so far. */
    long cpuNanos() {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (Thread t : threads) {
            long cpu = mx.getThreadCpuTime(t.getId());
            sum += Math.max(0, cpu);
        }
        return sum;
    }

    @Override
    public void close() {
        servers.forEach(Channel::close);
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    /**
     * One direction of a link: what is read on this channel is written to {@code peer} {@code delay} later. The bytes
     * wait in {@code pending}, each scheduled task forwarding the oldest, so that what a closing channel or a stopping
     * event loop leaves behind is released with the handler, not lost with a cancelled task.
     */
    private final class Delayed extends ChannelInboundHandlerAdapter {
        private final ArrayDeque<ByteBuf> pending = new ArrayDeque<>();
        private Channel peer; // set on the event loop once both sides are connected
        private long inFlight;
        private long lineFreeAt = Long.MIN_VALUE; // with a bandwidth: when the bytes read so far have gone out

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (peer == null) {
                ReferenceCountUtil.release(msg);
                return;
            }
            ByteBuf bytes = (ByteBuf) msg;
            pending.add(bytes);
            inFlight += bytes.readableBytes();
            if (inFlight > highWater) {
                ctx.channel().config().setAutoRead(false);
            }
            ctx.executor().schedule(() -> forwardOldest(ctx), waitNanos(bytes.readableBytes()), TimeUnit.NANOSECONDS);
        }

        /** How long {@code size} bytes read now wait: the delay, after the line has sent them and all before them. */
        private long waitNanos(int size) {
            if (bitsPerSecond == 0) {
                return delayNanos;
            }
            long now = System.nanoTime();
            long start = lineFreeAt == Long.MIN_VALUE || lineFreeAt - now < 0 ? now : lineFreeAt;
            lineFreeAt = start + size * 8L * 1_000_000_000L / bitsPerSecond;
            return lineFreeAt - now + delayNanos;
        }

        private void forwardOldest(ChannelHandlerContext ctx) {
            ByteBuf bytes = pending.poll();
            if (bytes == null) {
                return; // released when the handler was removed
            }
            inFlight -= bytes.readableBytes();
            peer.writeAndFlush(bytes);
            Channel self = ctx.channel();
            if (inFlight < highWater / 2 && !self.config().isAutoRead() && self.isActive()) {
                self.config().setAutoRead(true);
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            Channel to = peer;
            if (to != null) {
                // after the bytes still on their way: a close travels as late as they do
                ctx.executor().schedule(() -> to.close(), waitNanos(0), TimeUnit.NANOSECONDS);
            }
        }

        @Override
        public void handlerRemoved(ChannelHandlerContext ctx) {
            for (ByteBuf b; (b = pending.poll()) != null; ) {
                b.release();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
