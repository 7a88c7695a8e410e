package io.wakurelay.node;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * Memory figures of a node from its /metrics text, and a sampler that keeps their peaks while a test runs
 * (heap = every heap pool's used bytes; direct = Netty's count of direct memory, pooled and unpooled).
 */
final class NodeMemory {
    private NodeMemory() {
    }

    record Sample(double heap, double direct, double pooledDirect, double rss, double inboundPending, double archivePending) {
        static Sample of(String exposition) {
            double heap = 0;
            for (String line : exposition.split("\n")) {
                if (line.startsWith("jvm_memory_used_bytes{area=\"heap\"")) {
                    heap += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                }
            }
            return new Sample(heap, Http.metric(exposition, "waku_netty_direct_memory_used_bytes"),
                    Http.metric(exposition, "waku_netty_pooled_memory_bytes{type=\"direct\"}"), Http.metric(exposition, "waku_process_rss_bytes"),
                    Http.metric(exposition, "waku_relay_inbound_pending"), Http.metric(exposition, "waku_archive_pending"));
        }

        Sample max(Sample o) {
            return new Sample(Math.max(heap, o.heap), Math.max(direct, o.direct), Math.max(pooledDirect, o.pooledDirect), Math.max(rss, o.rss),
                    Math.max(inboundPending, o.inboundPending), Math.max(archivePending, o.archivePending));
        }

        @Override
        public String toString() {
            return String.format("heap %.1f MiB, Netty direct %.1f MiB (pooled %.1f MiB), RSS %.1f MiB, relay inbound pending %.0f, archive pending %.0f",
                    heap / (1 << 20), direct / (1 << 20), pooledDirect / (1 << 20), rss / (1 << 20), inboundPending, archivePending);
        }
    }

    /** Scrapes every {@code periodMillis} and keeps the peaks; {@link #close()} stops it. */
    static final class Peaks implements AutoCloseable {
        private final AtomicBoolean running = new AtomicBoolean(true);
        private volatile Sample peak = new Sample(0, 0, 0, 0, 0, 0);
        private volatile int samples;
        private final Thread thread;

        Peaks(Supplier<String> scrape, long periodMillis) {
            thread = new Thread(() -> {
                while (running.get()) {
                    try {
                        peak = peak.max(Sample.of(scrape.get()));
                        samples++;
                    } catch (RuntimeException | AssertionError e) {
                        // the node may be gone (killed on purpose): keep what was seen
                    }
                    try {
                        Thread.sleep(periodMillis);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "memory-peaks");
            thread.setDaemon(true);
            thread.start();
        }

        Sample peak() {
            return peak;
        }

        int samples() {
            return samples;
        }

        @Override
        public void close() throws InterruptedException {
            running.set(false);
            thread.join(10_000);
        }
    }
}
