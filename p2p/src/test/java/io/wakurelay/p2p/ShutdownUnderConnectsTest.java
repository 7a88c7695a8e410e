package io.wakurelay.p2p;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.crypto.PrivateKey;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A host shut down while peers keep connecting, or while it keeps dialling, logs no stack trace: its listener stops
 * accepting and its dials end before its event loops do, so no connection is accepted or dialled onto a loop that has
 * ended (Netty then logged "Force-closing a channel whose registration task was not accepted by an event loop" or
 * "Failed to submit a listener notification task", each with a RejectedExecutionException's trace).
 */
class ShutdownUnderConnectsTest {
    @Test
    void aHostShutDownUnderAStormOfConnectsLogsNoRejectedRegistration() throws Exception {
        Logger netty = (Logger) LoggerFactory.getLogger("io.netty");
        ListAppender<ILoggingEvent> events = new ListAppender<>();
        events.start();
        netty.addAppender(events);
        try {
            for (int round = 0; round < 30; round++) {
                Host host = Host.start(TestHosts.loopback().build(), PrivateKey.generateEd25519(), new SimpleMeterRegistry());
                InetSocketAddress address = host.boundAddress();
                AtomicBoolean stop = new AtomicBoolean();
                List<Thread> dialers = java.util.stream.IntStream.range(0, 4).mapToObj(i -> new Thread(() -> {
                    while (!stop.get()) {
                        try (Socket s = new Socket()) {
                            s.connect(address, 200);
                        } catch (IOException e) {
                            // refused once the listener is closed: keep trying until told to stop
                        }
                    }
                }, "dialer-" + i)).toList();
                dialers.forEach(Thread::start);
                Thread.sleep(20);
                host.shutdown(Duration.ZERO).block(Duration.ofSeconds(20));
                stop.set(true);
                for (Thread t : dialers) {
                    t.join();
                }
            }
        } finally {
            netty.detachAppender(events);
        }
        assertNoWarnings(events);
    }

    @Test
    void aHostShutDownWhileItKeepsDiallingLogsNoRejectedTask() throws Exception {
        Logger netty = (Logger) LoggerFactory.getLogger("io.netty");
        ListAppender<ILoggingEvent> events = new ListAppender<>();
        events.start();
        netty.addAppender(events);
        // a peer that accepts TCP and never answers: every dial stays under way until the shutdown ends it
        try (java.net.ServerSocket silent = new java.net.ServerSocket(0, 1000, java.net.InetAddress.getLoopbackAddress())) {
            Thread acceptor = new Thread(() -> {
                List<Socket> held = new java.util.ArrayList<>();
                try {
                    while (true) {
                        held.add(silent.accept());
                    }
                } catch (IOException e) {
                    held.forEach(s -> {
                        try {
                            s.close();
                        } catch (IOException ignored) {
                            // closing
                        }
                    });
                }
            }, "silent-peer");
            acceptor.start();
            for (int round = 0; round < 30; round++) {
                Host host = Host.start(TestHosts.loopback().build(), PrivateKey.generateEd25519(), new SimpleMeterRegistry());
                AtomicBoolean stop = new AtomicBoolean();
                List<Thread> dialers = java.util.stream.IntStream.range(0, 4).mapToObj(i -> new Thread(() -> {
                    while (!stop.get()) {
                        PeerId someone = PeerId.fromPublicKey(PrivateKey.generateEd25519().publicKey());
                        host.dial(io.wakurelay.p2p.multiaddr.Multiaddr.parse("/ip4/127.0.0.1/tcp/" + silent.getLocalPort()
                                + "/p2p/" + someone)).subscribe(c -> { }, e -> { });
                    }
                }, "dialer-" + i)).toList();
                dialers.forEach(Thread::start);
                Thread.sleep(20);
                host.shutdown(Duration.ZERO).block(Duration.ofSeconds(20));
                stop.set(true);
                for (Thread t : dialers) {
                    t.join();
                }
            }
            silent.close();
            acceptor.join();
        } finally {
            netty.detachAppender(events);
        }
        assertNoWarnings(events);
    }

    private static void assertNoWarnings(ListAppender<ILoggingEvent> events) {
        assertThat(events.list.stream().filter(e -> e.getLevel().isGreaterOrEqual(Level.WARN))
                .map(e -> e.getFormattedMessage() + (e.getThrowableProxy() == null ? "" : " " + e.getThrowableProxy().getClassName()
                        + java.util.Arrays.stream(e.getThrowableProxy().getStackTraceElementProxyArray()).limit(40)
                        .map(Object::toString).collect(java.util.stream.Collectors.joining("\n  ", "\n  ", "")))))
                .isEmpty();
    }
}
