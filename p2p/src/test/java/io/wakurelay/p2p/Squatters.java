package io.wakurelay.p2p;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Silent sockets that hold a host's connection slots: each connects and sends nothing, and is opened anew every
 * {@code renewMillis} (one after the other, spread over the period), whether the host closed it or not, so that no
 * deadline on a socket's age ever lets the slots go. Issue 27's G3 renewed 40 sockets every 8 s against a 10 s
 * handshake deadline.
 */
final class Squatters implements AutoCloseable {
    private final InetSocketAddress target;
    private final List<InetAddress> from;
    private final Socket[] sockets;
    private final ScheduledExecutorService renewer = Executors.newSingleThreadScheduledExecutor();
    private final AtomicInteger connects = new AtomicInteger();
    private int next;

    /** Opens {@code count} sockets to {@code target}, the i-th from {@code from.get(i % from.size())}. */
    Squatters(InetSocketAddress target, List<InetAddress> from, int count, long renewMillis) throws IOException {
        this.target = target;
        this.from = from;
        this.sockets = new Socket[count];
        for (int i = 0; i < count; i++) {
            sockets[i] = open(i);
        }
        long tick = Math.max(1, renewMillis / count);
        renewer.scheduleAtFixedRate(this::renewNext, tick, tick, TimeUnit.MILLISECONDS);
    }

    private Socket open(int i) throws IOException {
        Socket s = new Socket();
        s.bind(new InetSocketAddress(from.get(i % from.size()), 0));
        s.connect(target, 2000);
        connects.incrementAndGet();
        return s;
    }

    private synchronized void renewNext() {
        int i = next;
        next = (next + 1) % sockets.length;
        try {
            sockets[i].close();
            sockets[i] = open(i);
        } catch (IOException e) {
            // the host is gone or refused at once: try again at the next renewal
        }
    }

    /** Sockets connected so far, renewals included. */
    int connects() {
        return connects.get();
    }

    @Override
    public void close() throws Exception {
        renewer.shutdownNow();
        if (!renewer.awaitTermination(10, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the renewing thread did not end");
        }
        synchronized (this) {
            for (Socket s : sockets) {
                s.close();
            }
        }
    }
}
