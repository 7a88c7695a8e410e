package io.wakurelay.loadgen;

import io.wakurelay.archive.RocksConfig;
import io.wakurelay.archive.CommittedBatch;
import io.wakurelay.archive.Durability;
import io.wakurelay.node.WakuNode;
import io.wakurelay.protocol.MessageHash;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One node, no network: pre-encoded frames go into the relay's receive path (decode, validate, hash, dedup)
 * and on into the archive (a real RocksDB in {@code dataDir}, or the PostgreSQL database a {@code postgres://} URL names). A message counts when its batch is committed;
 * its latency runs from injection to commit.
 */
final class MicroScenario {
    private MicroScenario() {
    }

    static ResultRow run(Workload workload, Path dataDir, PrintStream err) {
        return run(workload, dataDir, RocksConfig.DEFAULTS.durability(), err);
    }

    /** @param durability the archive's (with flush, a message counts as archived once the flush that wrote it ended) */
    static ResultRow run(Workload workload, Path dataDir, Durability durability, PrintStream err) {
        return run(workload, dataDir, durability, "", err);
    }

    /** @param storeDbUrl where the node archives: empty for RocksDB in {@code dataDir}, {@code postgres://...} for PostgreSQL */
    static ResultRow run(Workload workload, Path dataDir, Durability durability, String storeDbUrl, PrintStream err) {
        try (WakuNode node = InProcessNodes.start(dataDir, durability, storeDbUrl, workload.pubsubTopic(), java.util.List.of());
             FrameSet frames = new FrameSet(workload);
             RelayInjector injector = new RelayInjector(node.relay())) {
            long[] injectedAt = new long[workload.total()];
            long[] archivedAt = new long[workload.total()];
            CountDownLatch warm = new CountDownLatch(workload.warmup());
            CountDownLatch measured = new CountDownLatch(workload.count());
            AtomicLong lastCommit = new AtomicLong();
            Disposable watch = node.committed().subscribe(batch -> onCommit(batch, frames, workload, archivedAt, warm, measured, lastCommit));
            try {
                inject(injector, frames, injectedAt, 0, workload.warmup());
                await(warm, "warmup", Duration.ofMinutes(5));

                // the encoder works just ahead of use (all frames would not fit in memory): its CPU is counted apart
                Measurement m = new Measurement("micro", workload.count(), node.counters()).notNodeCpu(frames::encoderCpuNanos);
                try (Progress p = m.progress("micro", () -> workload.count() - measured.getCount(), err)) {
                    inject(injector, frames, injectedAt, workload.warmup(), workload.total());
                    await(measured, "all measured messages archived", Duration.ofMinutes(30));
                }
                Latencies latencies = new Latencies(workload.count());
                for (int i = workload.warmup(); i < workload.total(); i++) {
                    latencies.add(archivedAt[i] - injectedAt[i]);
                }
                ResultRow row = m.finish(lastCommit.get(), latencies, frames.payloadBytes(workload.warmup(), workload.total()), 0,
                        Map.of("archive", InProcessNodes.backend(storeDbUrl)));
                err.printf(Locale.ROOT, "micro: %.1f msg/s; node CPU %s µs per message (the generator's encoder %s µs, not in it)%n",
                        row.msgPerS(), row.json().get("node_cpu_us_per_msg"), row.json().get("generator_cpu_us_per_msg"));
                return row;
            } finally {
                watch.dispose();
            }
        }
    }

    private static void inject(RelayInjector injector, FrameSet frames, long[] injectedAt, int from, int to) {
        injector.inject(Flux.range(from, to - from).map(i -> {
            injectedAt[i] = System.nanoTime();
            return frames.frame(i);
        })).block();
    }

    private static void onCommit(CommittedBatch batch, FrameSet frames, Workload workload, long[] archivedAt,
                                 CountDownLatch warm, CountDownLatch measured, AtomicLong lastCommit) {
        for (MessageHash hash : batch.stored()) {
            int i = frames.indexOf(hash);
            if (i < 0) {
                continue;
            }
            archivedAt[i] = batch.committedAtNanos();
            if (i < workload.warmup()) {
                warm.countDown();
            } else {
                lastCommit.set(batch.committedAtNanos());
                measured.countDown();
            }
        }
    }

    static void await(CountDownLatch latch, String what, Duration timeout) {
        try {
            if (!latch.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("timed out waiting for " + what + ": " + latch.getCount() + " still outstanding");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
