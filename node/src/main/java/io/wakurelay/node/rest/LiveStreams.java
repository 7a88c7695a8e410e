package io.wakurelay.node.rest;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;
import reactor.util.concurrent.Queues;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Server-Sent Event subscribers by pubsub topic. Each stream has a bounded buffer; a reader too slow to keep
 * up loses messages (counted) and never slows the node or other readers.
 */
public final class LiveStreams {
    private final int maxStreams;
    private final int bufferMessages;
    private final Map<String, Set<Sinks.Many<String>>> byTopic = new ConcurrentHashMap<>();
    private final AtomicInteger open = new AtomicInteger();
    private final AtomicLong dropped = new AtomicLong();

    public LiveStreams(int maxStreams, int bufferMessages) {
        this.maxStreams = maxStreams;
        this.bufferMessages = bufferMessages;
    }

    /** True when someone listens on the topic; lets the node skip rendering otherwise. */
    public boolean hasListeners(String topic) {
        Set<Sinks.Many<String>> sinks = byTopic.get(topic);
        return sinks != null && !sinks.isEmpty();
    }

    /** @return the events for one new reader, or null when the stream limit is reached */
    public Flux<String> open(String topic) {
        if (open.incrementAndGet() > maxStreams) {
            open.decrementAndGet();
            return null;
        }
        Sinks.Many<String> sink = Sinks.many().unicast().onBackpressureBuffer(Queues.<String>get(bufferMessages).get());
        byTopic.computeIfAbsent(topic, t -> new CopyOnWriteArraySet<>()).add(sink);
        return sink.asFlux().doFinally(signal -> {
            Set<Sinks.Many<String>> sinks = byTopic.get(topic);
            if (sinks != null) {
                sinks.remove(sink);
            }
            open.decrementAndGet();
        });
    }

    public void publish(String topic, String event) {
        Set<Sinks.Many<String>> sinks = byTopic.get(topic);
        if (sinks == null) {
            return;
        }
        for (Sinks.Many<String> sink : sinks) {
            Sinks.EmitResult result = sink.tryEmitNext(event);
            if (result == Sinks.EmitResult.FAIL_OVERFLOW || result == Sinks.EmitResult.FAIL_NON_SERIALIZED) {
                dropped.incrementAndGet();
            }
        }
    }

    /** Ends every stream (shutdown). */
    public void completeAll() {
        byTopic.values().forEach(sinks -> sinks.forEach(Sinks.Many::tryEmitComplete));
    }

    public int openStreams() {
        return open.get();
    }

    public long dropped() {
        return dropped.get();
    }
}
