package io.wakurelay.node;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * A node's components in the order they started. They stop in reverse, in two passes: first each one's graceful
 * shutdown in turn, all of them sharing one grace period (a component gets what its predecessors left of it), then
 * each one's close, which releases what it holds whether or not its shutdown finished. A start that fails part way
 * closes, in reverse, what had started.
 */
final class StartedComponents {
    private static final Logger log = LoggerFactory.getLogger(StartedComponents.class);
    /** Time a component may take past the grace to report that it gave up (its own timers fire at the grace). */
    private static final Duration REPORT_MARGIN = Duration.ofSeconds(1);
    /** A shutdown this long is logged with its time: the clue when a stop takes most of its grace. */
    private static final Duration SLOW_SHUTDOWN = Duration.ofSeconds(1);

    private record Started(String name, Function<Duration, Mono<Void>> shutdown, AutoCloseable close) {
    }

    private final List<Started> started = new ArrayList<>();
    private final LongSupplier nanoClock;

    StartedComponents() {
        this(System::nanoTime);
    }

    /** @param nanoClock a monotonic clock in nanoseconds ({@link System#nanoTime()} outside tests) */
    StartedComponents(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
    }

    /** Adds a started component that stops with {@code shutdown(grace)} and then {@code close}. */
    <T> T add(String name, T component, Function<Duration, Mono<Void>> shutdown, AutoCloseable close) {
        started.add(new Started(name, shutdown, close));
        return component;
    }

    /** Adds a started component that has nothing to finish: it is only closed. */
    <T extends AutoCloseable> T add(String name, T component) {
        return add(name, component, grace -> Mono.empty(), component);
    }

    /** Closes what started, newest first, without a graceful shutdown (a start failed). */
    void unwind() {
        for (int i = started.size() - 1; i >= 0; i--) {
            closeQuietly(started.get(i));
        }
        started.clear();
    }

    /** Shuts every component down within {@code grace} in all, newest first, then closes them all. */
    void stop(Duration grace) {
        long deadline = nanoClock.getAsLong() + grace.toNanos();
        for (int i = started.size() - 1; i >= 0; i--) {
            Started s = started.get(i);
            long begun = nanoClock.getAsLong();
            Duration left = Duration.ofNanos(Math.max(0, deadline - begun));
            try {
                s.shutdown().apply(left).block(left.plus(REPORT_MARGIN));
                Duration took = Duration.ofNanos(nanoClock.getAsLong() - begun);
                if (took.compareTo(SLOW_SHUTDOWN) >= 0) {
                    log.atWarn().addKeyValue("component", s.name()).addKeyValue("ms", took.toMillis())
                            .addKeyValue("graceMs", left.toMillis()).log("a component was slow to shut down");
                }
            } catch (RuntimeException e) {
                // past its share of the grace (or failed): it is closed below all the same
                log.atWarn().addKeyValue("component", s.name()).addKeyValue("grace", String.valueOf(left))
                        .addKeyValue("reason", e.toString()).log("a component did not shut down in time");
            }
        }
        unwind();
    }

    private static void closeQuietly(Started s) {
        try {
            s.close().close();
        } catch (Exception e) {
            log.atWarn().addKeyValue("component", s.name()).setCause(e).log("closing a component failed");
        }
    }
}
