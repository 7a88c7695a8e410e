package io.wakurelay.node.rest;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;
import reactor.util.concurrent.Queues;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Server-Sent Event subscribers by pubsub topic. Each stream has a bounded buffer; a reader too slow to keep
 * up loses messages (counted) and never slows the node or other readers. A reader that has not taken a single
 * event while a whole buffer's worth was dropped is taken for stuck and disconnected, so that it does not hold
 * one of the limited stream slots forever.
 */
public final class LiveStreams {
    private final int maxStreams;
    private final int bufferMessages;
    private final Map<String, Set<Stream>> byTopic = new ConcurrentHashMap<>();
    private final AtomicInteger open = new AtomicInteger();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong disconnected = new AtomicLong();

    public LiveStreams(int maxStreams, int bufferMessages) {
        this.maxStreams = maxStreams;
        this.bufferMessages = bufferMessages;
    }

    /** True when someone listens on the topic; lets the node skip rendering otherwise. */
    public boolean hasListeners(String topic) {
        Set<Stream> streams = byTopic.get(topic);
        return streams != null && !streams.isEmpty();
    }

    /**
     * @param disconnect closes the reader's connection; called at most once, when the reader is stuck
     * @return the events for one new reader, or null when the stream limit is reached
     */
    public Flux<String> open(String topic, Runnable disconnect) {
        if (open.incrementAndGet() > maxStreams) {
            open.decrementAndGet();
            return null;
        }
        Stream stream = new Stream(Sinks.many().unicast().onBackpressureBuffer(Queues.<String>get(bufferMessages).get()), disconnect);
        byTopic.computeIfAbsent(topic, t -> new CopyOnWriteArraySet<>()).add(stream);
        return stream.sink.asFlux().doFinally(signal -> {
            Set<Stream> streams = byTopic.get(topic);
            if (streams != null) {
                streams.remove(stream);
            }
            open.decrementAndGet();
        });
    }

    public void publish(String topic, String event) {
        Set<Stream> streams = byTopic.get(topic);
        if (streams == null) {
            return;
        }
        for (Stream stream : streams) {
            Sinks.EmitResult result = stream.sink.tryEmitNext(event);
            if (result.isSuccess()) {
                stream.consecutiveDrops.set(0);
            } else if (result == Sinks.EmitResult.FAIL_OVERFLOW || result == Sinks.EmitResult.FAIL_NON_SERIALIZED) {
                dropped.incrementAndGet();
                if (stream.consecutiveDrops.incrementAndGet() >= bufferMessages && stream.disconnected.compareAndSet(false, true)) {
                    // completing the sink would not help: the completion queues behind the events the reader never takes
                    disconnected.incrementAndGet();
                    stream.disconnect.run();
                }
            }
        }
    }

    /** Ends every stream (shutdown). */
    public void completeAll() {
        byTopic.values().forEach(streams -> streams.forEach(stream -> stream.sink.tryEmitComplete()));
    }

    public int openStreams() {
        return open.get();
    }

    public long dropped() {
        return dropped.get();
    }

    public long disconnected() {
        return disconnected.get();
    }

    private record Stream(Sinks.Many<String> sink, Runnable disconnect, AtomicInteger consecutiveDrops, AtomicBoolean disconnected) {
        Stream(Sinks.Many<String> sink, Runnable disconnect) {
            this(sink, disconnect, new AtomicInteger(), new AtomicBoolean());
        }
    }
}
