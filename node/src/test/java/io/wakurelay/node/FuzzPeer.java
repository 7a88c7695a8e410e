package io.wakurelay.node;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.wakurelay.p2p.connection.Connection;
import io.wakurelay.p2p.Host;
import io.wakurelay.p2p.HostConfig;
import io.wakurelay.p2p.connection.Stream;
import io.wakurelay.p2p.connection.StreamHandler;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.relay.Relay;
import io.wakurelay.relay.proto.ControlGraft;
import io.wakurelay.relay.proto.ControlMessage;
import io.wakurelay.relay.proto.RPC;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;

/**
 * One hostile relay peer of {@code HostilePeerFuzzTest} (system-tests): until its deadline it connects to the node under a new
 * identity each time (a Sybil: the node's scores cannot follow it) and plays its {@link Persona}. Everything the node
 * does to it (resets, refusals, disconnects) is the node's right; it only moves on.
 */
final class FuzzPeer implements Runnable {
    private static final Duration WAIT = Duration.ofSeconds(10);
    static final Duration FLOOD_SESSION = Duration.ofSeconds(3);

    enum Persona {
        /**
         * A session of every kind of {@link HostileRelaySteps} once, in an order of its own, then a random number of
         * random steps, opening a new stream where the node reset one; at times it begins with an RPC cut short and a
         * stall past the node's read deadline.
         */
        CHAOTIC,
        /**
         * A flood of one control kind per session, the next kind of {@link HostileRelaySteps#CONTROL} each session
         * (GRAFT or PRUNE for known or unknown topics, IHAVE, IWANT, IDONTWANT, packed RPCs, subscriptions), never an
         * invalid message, as fast as the node takes it, for {@link #FLOOD_SESSION} or until the node disconnects
         * it: what would grow per-peer state. Every other session it never reads what the node writes back.
         */
        CONTROL_FLOODER,
        /** Joins the mesh politely and never reads what the node writes to it: it grants no credit. */
        SLOW_READER
    }

    private final Multiaddr target;
    private final String listenAddress;
    private final long deadlineNanos;
    private final Persona persona;
    private final int firstFloodKind;
    private final String topic;
    private final HostileRelaySteps steps;
    private final Random random;
    private final Duration stall;
    private final Set<String> kindsSent;
    private final List<String> problems;
    private int sessions;

    /**
     * @param firstFloodKind the index in {@link HostileRelaySteps#CONTROL} of a flooder's first kind
     * @param stall     how long a session that begins with a truncated RPC waits after it (past the node's RPC
     *                  read timeout, so that the node's deadline is what ends it)
     * @param kindsSent where the kinds of step written are recorded (for the metrics the node must show)
     * @param problems  what went wrong on this side, other than the node defending itself
     */
    FuzzPeer(Multiaddr target, String listenAddress, long seed, int firstFloodKind, Duration runFor, Persona persona, String topic,
             String contentTopic, Duration stall, Set<String> kindsSent, List<String> problems) {
        this.target = target;
        this.listenAddress = listenAddress;
        this.deadlineNanos = System.nanoTime() + runFor.toNanos();
        this.persona = persona;
        this.firstFloodKind = firstFloodKind;
        this.topic = topic;
        this.steps = new HostileRelaySteps(seed, topic, contentTopic);
        this.random = new Random(seed ^ 0x5DEECE66DL);
        this.stall = stall;
        this.kindsSent = kindsSent;
        this.problems = problems;
    }

    @Override
    public void run() {
        while (!over()) {
            sessions++;
            Host host = Host.start(HostConfig.builder().listenAddress(new InetSocketAddress(listenAddress, 0)).build(),
                    PrivateKey.generateEd25519(), new SimpleMeterRegistry());
            try {
                boolean reads = persona == Persona.CHAOTIC || (persona == Persona.CONTROL_FLOODER && sessions % 2 == 1);
                host.handle(Relay.PROTOCOL_ID, s -> reads ? discard() : neverRead());
                Connection connection = host.dial(target).block(WAIT);
                switch (persona) {
                    case CHAOTIC -> session(connection);
                    case CONTROL_FLOODER -> flood(connection);
                    case SLOW_READER -> slowSession(connection);
                }
            } catch (RuntimeException e) {
                // refused, reset or disconnected by the node: what it is there to do
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } finally {
                try {
                    host.close();
                } catch (RuntimeException e) {
                    problems.add("closing a fuzz peer's host: " + e);
                }
            }
        }
    }

    int sessions() {
        return sessions;
    }

    private boolean over() {
        return System.nanoTime() - deadlineNanos >= 0 || Thread.currentThread().isInterrupted();
    }

    private void session(Connection connection) throws InterruptedException {
        if (random.nextInt(3) == 0) {
            stallOnATruncatedRpc(connection);
        }
        Stream stream = open(connection);
        List<HostileRelaySteps.Step> tour = new ArrayList<>();
        for (HostileRelaySteps.Kind kind : HostileRelaySteps.Kind.values()) {
            tour.add(steps.next(kind));
        }
        Collections.shuffle(tour, random);
        int extra = 20 + random.nextInt(200);
        for (int i = 0; i < tour.size() + extra && connection.isOpen() && !over(); i++) {
            HostileRelaySteps.Step step = i < tour.size() ? tour.get(i) : steps.next();
            if (!awaitWritable(stream)) {
                stream = open(connection);
            }
            kindsSent.add(step.kind().name());
            stream.write(Unpooled.wrappedBuffer(step.wire()));
            if (step.resetsStream()) {
                // the node resets the stream (and may penalise); the next step goes on a new one
                Thread.sleep(20);
                stream = open(connection);
            }
            if (random.nextInt(4) == 0) {
                Thread.sleep(random.nextInt(5));
            }
        }
    }

    /**
     * Half an RPC on a stream of its own, then nothing until past the node's read deadline: first in a session, while
     * the new identity's score is clean, so that only the deadline can end it. Recorded only once the wait is over.
     */
    private void stallOnATruncatedRpc(Connection connection) throws InterruptedException {
        Stream stream = open(connection);
        stream.write(Unpooled.wrappedBuffer(steps.truncatedFrame()));
        long until = System.nanoTime() + stall.toNanos();
        while (System.nanoTime() - until < 0 && !over()) {
            Thread.sleep(50);
        }
        if (!over() && connection.isOpen()) {
            kindsSent.add("TRUNCATED_FRAME");
        }
    }

    private void flood(Connection connection) {
        Stream stream = open(connection);
        HostileRelaySteps.Kind kind = HostileRelaySteps.CONTROL[(firstFloodKind + sessions - 1) % HostileRelaySteps.CONTROL.length];
        int written = 0;
        long started = System.nanoTime();
        try {
            while (connection.isOpen() && !over() && System.nanoTime() - started < FLOOD_SESSION.toNanos()) {
                HostileRelaySteps.Step step = steps.next(kind);
                if (!awaitWritable(stream)) {
                    return;
                }
                kindsSent.add(step.kind().name());
                stream.write(Unpooled.wrappedBuffer(step.wire()));
                written++;
            }
        } finally {
            System.out.printf("fuzz flood of %s: %d RPCs in %d ms, connection %s%n", kind, written,
                    (System.nanoTime() - started) / 1_000_000, connection.isOpen() ? "open" : "closed");
        }
    }

    /** Subscribes, grafts, and then never reads the node's stream: its writes wait for credit that never comes. */
    private void slowSession(Connection connection) throws InterruptedException {
        Stream stream = open(connection);
        RPC join = RPC.newBuilder().addSubscriptions(RPC.SubOpts.newBuilder().setSubscribe(true).setTopicid(topic))
                .setControl(ControlMessage.newBuilder().addGraft(ControlGraft.newBuilder().setTopicID(topic))).build();
        stream.write(Unpooled.wrappedBuffer(HostileRelaySteps.framed(join.toByteArray())));
        kindsSent.add("SLOW_READER");
        while (connection.isOpen() && !over()) {
            Thread.sleep(50);
        }
    }

    private static Stream open(Connection connection) {
        return connection.openStream(Relay.PROTOCOL_ID, discard()).block(WAIT);
    }

    /** Waits while the node grants no credit (it paused us, or is busy); false when it stays so for long. */
    private static boolean awaitWritable(Stream stream) {
        long until = System.nanoTime() + WAIT.toNanos();
        while (stream.isOpen() && !stream.isWritable() && System.nanoTime() - until < 0) {
            LockSupport.parkNanos(1_000_000);
        }
        return stream.isOpen() && stream.isWritable();
    }

    private static StreamHandler discard() {
        return new StreamHandler() {
            @Override
            public void onData(Stream s, ByteBuf data) {
                data.release();
            }
        };
    }

    /** Pauses at once: what the node writes stays in its queues, waiting for credit. */
    private static StreamHandler neverRead() {
        return new StreamHandler() {
            @Override
            public void onOpen(Stream s) {
                s.pauseReading();
            }

            @Override
            public void onData(Stream s, ByteBuf data) {
                data.release();
            }
        };
    }
}
