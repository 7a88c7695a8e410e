package io.wakurelay.loadgen;

import com.google.protobuf.UnsafeByteOperations;
import io.netty.buffer.ByteBuf;
import io.wakurelay.node.WakuNode;
import io.wakurelay.protocol.proto.WakuMessage;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * After nanomsg's local_lat/remote_lat: one message of {@code size} bytes in flight at a time. The sender
 * hands a ping to its node, which relays it through the relay node under test to the receiver's node; the
 * receiver answers each ping with a pong of the same size back through the relay; the round trip is timed at
 * the sender. Reports round-trip p50, p99 and average; one-way latency is half of it, as nanomsg prints it.
 */
final class LatencyScenario {
    static final String PING = "/loadgen/1/ping/proto";
    static final String PONG = "/loadgen/1/pong/proto";

    private LatencyScenario() {
    }

    static ResultRow run(String topic, int size, int count, int warmup, boolean store, Path dir, PrintStream err) {
        try (FrameSet pings = FrameSet.fixedSize(topic, PING, size, count, warmup);
             RelayTrio trio = new RelayTrio(dir, topic, store)) {
            LinkedBlockingQueue<Integer> pongs = new LinkedBlockingQueue<>();
            AutoCloseable echo = trio.receiver.tap(e -> {
                if (e.message().contentTopic().equals(PING)) {
                    trio.receiver.relay().publish(topic, pong(e.message().payload(), e.message().payloadSize())).subscribe();
                }
            });
            AutoCloseable back = trio.sender.tap(e -> {
                if (e.message().contentTopic().equals(PONG)) {
                    ByteBuf p = e.message().payload();
                    pongs.offer(p.getInt(p.readerIndex()));
                }
            });
            try (echo; back; FrameFeeder feeder = new FrameFeeder(trio.sender)) {
                roundTrips(feeder, pings, 0, warmup, pongs, null);
                Latencies latencies = new Latencies(count);
                Measurement m = new Measurement("lat", count, trio.relay.counters(), 2L * count);
                try (Progress p = m.progress("lat", latencies::size, err)) {
                    roundTrips(feeder, pings, warmup, warmup + count, pongs, latencies);
                }
                long[] sorted = latencies.sorted();
                Map<String, Object> extras = new LinkedHashMap<>();
                extras.put("message_size", size);
                extras.put("one_way_avg_ns", Latencies.average(sorted) / 2);
                extras.put("store", store);
                return m.finish(System.nanoTime(), latencies, 2L * pings.payloadBytes(warmup, warmup + count), 0, extras);
            } catch (Exception e) {
                throw e instanceof RuntimeException re ? re : new IllegalStateException(e);
            }
        }
    }

    private static void roundTrips(FrameFeeder feeder, FrameSet pings, int from, int to,
                                   LinkedBlockingQueue<Integer> pongs, Latencies latencies) {
        for (int i = from; i < to; i++) {
            long start = System.nanoTime();
            feeder.send(pings.frame(i));
            Integer answered;
            try {
                do {
                    answered = pongs.poll(30, TimeUnit.SECONDS);
                } while (answered != null && answered < i); // a late pong of an earlier round
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
            if (answered == null || answered != i) {
                throw new IllegalStateException("round trip " + i + " got no pong in 30 s (got " + answered + ")");
            }
            if (latencies != null) {
                latencies.add(System.nanoTime() - start);
            }
        }
    }

    /** The pong carries the ping's bytes (read while the ping's envelope is referenced, copied once). */
    private static WakuMessage pong(ByteBuf pingPayload, int size) {
        byte[] copy = new byte[size];
        pingPayload.getBytes(pingPayload.readerIndex(), copy);
        return WakuMessage.newBuilder().setPayload(UnsafeByteOperations.unsafeWrap(copy))
                .setContentTopic(PONG).setTimestamp(WakuNode.nowNanos()).build();
    }
}
