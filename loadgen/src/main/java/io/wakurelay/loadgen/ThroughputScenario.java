package io.wakurelay.loadgen;


import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * After nanomsg's local_thr/remote_thr: the sender publishes {@code count} messages of {@code size} bytes
 * through the relay as fast as the window of unconfirmed messages allows; the receiver times from the first
 * message it gets to the last, as local_thr does, and reports msg/s and MB/s.
 */
final class ThroughputScenario {
    static final String CONTENT = "/loadgen/1/thr/proto";

    private ThroughputScenario() {
    }

    static ResultRow run(String topic, int size, int count, int warmup, boolean store, Path dir, PrintStream err) {
        try (FrameSet frames = FrameSet.fixedSize(topic, CONTENT, size, count, warmup);
             RelayTrio trio = new RelayTrio(dir, topic, store)) {
            Window window = Window.standard(0);
            Tracker tracker = new Tracker(warmup + count, warmup, i -> window.release(frames.payloadSize(i)));
            AutoCloseable counter = trio.receiver.tap(e -> {
                if (e.message().contentTopic().equals(CONTENT)) {
                    tracker.confirmed(e.hash(), System.nanoTime());
                }
            });
            try (counter; FrameFeeder feeder = new FrameFeeder(trio.sender)) {
                MacroScenario.send(feeder, frames, tracker, window, 0, warmup);
                MicroScenario.await(tracker.warm, "warmup", MacroScenario.STALL);
                Measurement m = new Measurement("thr", count, trio.relay.counters());
                try (Progress p = m.progress("thr", () -> count - tracker.outstanding(), err)) {
                    MacroScenario.send(feeder, frames, tracker, window, warmup, warmup + count);
                    MicroScenario.await(tracker.measured, "all messages received", Duration.ofMinutes(30));
                }
                long last = tracker.lastConfirmed();
                ResultRow row = m.finish(last, new Latencies(0), frames.payloadBytes(warmup, warmup + count), 0, Map.of());
                // local_thr's clock runs from the first message received to the last
                double seconds = Math.max(1e-9, (last - tracker.firstConfirmed()) / 1e9);
                Map<String, Object> extras = new LinkedHashMap<>();
                extras.put("message_size", size);
                extras.put("store", store);
                extras.put("receiver_window_ms", seconds * 1000);
                return new ResultRow("thr", count, row.elapsedMs(), count / seconds, 0, 0, row.decodesPerMsg(), row.hashesPerMsg(),
                        row.copiesPerMsg(), row.peakHeapMb(), row.peakRssMb(), row.allocBytesPerMsg(), row.gcCount(),
                        (double) Math.max(4, size) * count / 1e6 / seconds, 0, row.peakDirectMb(), 0, extras, new long[0], row.timeline());
            } catch (Exception e) {
                throw e instanceof RuntimeException re ? re : new IllegalStateException(e);
            }
        }
    }
}
