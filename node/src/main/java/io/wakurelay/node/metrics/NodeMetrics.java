package io.wakurelay.node.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.PoolArenaMetric;
import io.netty.buffer.PoolChunkListMetric;
import io.netty.buffer.PoolChunkMetric;
import io.netty.buffer.PooledByteBufAllocatorMetric;
import io.netty.util.internal.PlatformDependent;
import io.wakurelay.protocol.PathCounters;

import java.util.Set;

/**
 * The node's Prometheus registry: JVM, process and Netty memory, and the message-path counters. The relay
 * and archive register their own meters on the same registry.
 */
public final class NodeMetrics implements AutoCloseable {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final JvmGcMetrics gc = new JvmGcMetrics();

    /** @param version the node's version, served as the {@code version} label of {@code waku_version} (as nwaku) */
    public NodeMetrics(PathCounters counters, String version) {
        new JvmMemoryMetrics().bindTo(registry);
        gc.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        new FileDescriptorMetrics().bindTo(registry);
        bindPathCounters(registry, counters);
        bindNettyMemory(registry);
        Gauge.builder("waku.process.rss", ProcessMemory::residentBytes).baseUnit("bytes")
                .description("resident set size of the process (VmRSS)").register(registry);
        bindStandardProcessNames(registry);
        Gauge.builder("waku.version", () -> 1).tag("version", version)
                .description("1, labelled with the node's version").register(registry);
    }

    public PrometheusMeterRegistry registry() {
        return registry;
    }

    public String scrape() {
        return registry.scrape();
    }

    /** @param contentType the Prometheus text format or OpenMetrics (their content types, as {@code Accept} names them) */
    public String scrape(String contentType) {
        return registry.scrape(contentType);
    }

    /**
     * @param includedNames the metric families to render (a counter's name without {@code _total}), or null for all
     */
    public String scrape(String contentType, Set<String> includedNames) {
        return registry.scrape(contentType, includedNames);
    }

    /**
     * The names Prometheus' own client libraries give the process's memory and files (nim-metrics too, so nwaku's
     * dashboards read them): {@code process_resident_memory_bytes}, {@code process_virtual_memory_bytes} (Linux VmRSS
     * and VmSize) and {@code process_open_fds}; Micrometer's binders name them otherwise.
     */
    static void bindStandardProcessNames(MeterRegistry registry) {
        Gauge.builder("process.resident.memory", ProcessMemory::residentBytes).baseUnit("bytes")
                .description("resident set size of the process (VmRSS; Prometheus' standard name)").register(registry);
        Gauge.builder("process.virtual.memory", ProcessMemory::virtualBytes).baseUnit("bytes")
                .description("virtual memory size of the process (VmSize; Prometheus' standard name)").register(registry);
        Gauge.builder("process.open.fds", ProcessMemory::openFileDescriptors)
                .description("open file descriptors of the process (Prometheus' standard name)").register(registry);
    }

    static void bindPathCounters(MeterRegistry registry, PathCounters counters) {
        FunctionCounter.builder("waku.decodes", counters, PathCounters::decodes)
                .description("WakuMessage decodes").register(registry);
        FunctionCounter.builder("waku.message.ids", counters, PathCounters::messageIds)
                .description("gossipsub message id computations (SHA-256 of the WakuMessage bytes): one per message received or published")
                .register(registry);
        FunctionCounter.builder("waku.hashes", counters, PathCounters::hashes)
                .description("message hash computations").register(registry);
        FunctionCounter.builder("waku.payload.copies", counters, PathCounters::payloadCopies)
                .description("payloads copied onto the heap instead of aliased").register(registry);
        FunctionCounter.builder("waku.encodes", counters, PathCounters::encodes)
                .description("WakuMessage encodes (local publishes)").register(registry);
    }

    static void bindNettyMemory(MeterRegistry registry) {
        PooledByteBufAllocatorMetric pooled = PooledByteBufAllocator.DEFAULT.metric();
        Gauge.builder("waku.netty.pooled.memory", pooled, PooledByteBufAllocatorMetric::usedDirectMemory).baseUnit("bytes")
                .tag("type", "direct").description("memory held by Netty's pooled allocator").register(registry);
        Gauge.builder("waku.netty.pooled.memory", pooled, PooledByteBufAllocatorMetric::usedHeapMemory).baseUnit("bytes")
                .tag("type", "heap").description("memory held by Netty's pooled allocator").register(registry);
        Gauge.builder("waku.netty.direct.memory.used", PlatformDependent::usedDirectMemory).baseUnit("bytes")
                .description("direct memory Netty has allocated (pooled and unpooled); -1 when not tracked").register(registry);
        Gauge.builder("waku.netty.direct.memory.max", PlatformDependent::maxDirectMemory).baseUnit("bytes")
                .description("Netty's direct memory limit").register(registry);
        Gauge.builder("waku.netty.direct.buffers", pooled, NodeMetrics::directBuffersHandedOut).baseUnit("bytes")
                .description("bytes of the pool's direct chunks handed out as buffers (in use or in threads' caches)")
                .register(registry);
    }

    /**
     * What the pooled allocator's direct chunks have handed out and not had back. The pool keeps a chunk once it has
     * one (its used memory grows in 4 MiB steps and rarely shrinks), so this is the figure that shows whether what a
     * peer made the node hold was given back after it left.
     */
    private static double directBuffersHandedOut(PooledByteBufAllocatorMetric pooled) {
        long handedOut = 0;
        for (PoolArenaMetric arena : pooled.directArenas()) {
            for (PoolChunkListMetric list : arena.chunkLists()) {
                for (PoolChunkMetric chunk : list) {
                    handedOut += chunk.chunkSize() - chunk.freeBytes();
                }
            }
        }
        return handedOut;
    }

    @Override
    public void close() {
        gc.close();
        registry.close();
    }
}
