package io.wakurelay.node;

import io.wakurelay.node.metrics.MetricsConfig;
import io.wakurelay.node.metrics.MetricsServer;
import io.wakurelay.node.rest.RestConfig;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.util.function.Supplier;

/**
 * The HTTP servers' ports, so that a clash stops the start before the node is dialable: the metrics server binds
 * before the p2p host; REST's port is held ({@link #reserve}) from before the host starts until REST binds it, after
 * the services it serves. A port that cannot be bound is a {@link BindFailedException} naming the option.
 */
final class ServerPorts {
    private ServerPorts() {
    }

    /** The metrics server, started; a bind failure names {@code --metrics-server-port}. */
    static MetricsServer metrics(MetricsConfig config, MetricsServer.Exposition scrape) {
        try {
            return MetricsServer.start(config, scrape);
        } catch (RuntimeException e) {
            throw failure(e, "metrics", new InetSocketAddress(config.address(), config.port()), "--metrics-server-port");
        }
    }

    /** REST's port, held until {@link Reservation#bind}; nothing is held when REST is off or takes any free port. */
    static Reservation reserve(RestConfig rest) {
        if (rest == null || rest.port() == 0) {
            return new Reservation(null, null);
        }
        InetSocketAddress address = new InetSocketAddress(rest.address(), rest.port());
        try {
            ServerSocketChannel channel = ServerSocketChannel.open();
            try {
                channel.setOption(StandardSocketOptions.SO_REUSEADDR, true);
                channel.bind(address, 1);
            } catch (IOException | RuntimeException e) {
                channel.close();
                throw e;
            }
            return new Reservation(channel, address);
        } catch (IOException | RuntimeException e) {
            throw new BindFailedException("REST", address, "--rest-port", e);
        }
    }

    private static RuntimeException failure(RuntimeException e, String what, InetSocketAddress address, String option) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof reactor.netty.ChannelBindException || t instanceof java.net.BindException) {
                return new BindFailedException(what, address, option, e);
            }
        }
        return e;
    }

    /** A port held for a server that binds it later. */
    static final class Reservation implements AutoCloseable {
        private final ServerSocketChannel channel;
        private final InetSocketAddress address;

        private Reservation(ServerSocketChannel channel, InetSocketAddress address) {
            this.channel = channel;
            this.address = address;
        }

        /** Lets the port go and starts the REST server on it; a bind failure names {@code --rest-port}. */
        <T> T bind(Supplier<T> start) {
            close();
            try {
                return start.get();
            } catch (RuntimeException e) {
                throw address == null ? e : failure(e, "REST", address, "--rest-port");
            }
        }

        @Override
        public void close() {
            if (channel != null && channel.isOpen()) {
                try {
                    channel.close();
                } catch (IOException e) {
                    // a listening socket that will not close holds nothing we need
                }
            }
        }
    }
}
