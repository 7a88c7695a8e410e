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
 * Server-Sent Event subscribers by pubsub topic. What waits for a reader is bounded three ways: per stream by
 * count ({@code bufferMessages}) and by bytes ({@code streamBytes}), and for all streams together by bytes
 * ({@code totalBytes}). An event past a bound is dropped for that reader (counted); the node and other readers
 * never wait. An empty stream always takes one event, so that an event larger than {@code streamBytes} is not
 * dropped for everyone. A reader that has not taken a single event while {@code bufferMessages} events in a row
 * were dropped is taken for stuck and disconnected, so that it does not hold one of the limited stream slots
 * forever.
 *
 * <p>Bytes are counted from the moment an event is buffered until the reader's connection takes it (one event at
 * a time: the sender asks for the next only once the previous is written to the socket), and an event shared by
 * several streams counts once per stream. Events are published from one thread (the node's message path).
 */
public final class LiveStreams {
    private final int maxStreams;
    private final int bufferMessages;
    private final long streamBytes;
    private final long totalBytes;
    private final Map<String, Set<Stream>> byTopic = new ConcurrentHashMap<>();
    private final AtomicInteger open = new AtomicInteger();
    private final AtomicLong buffered = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong disconnected = new AtomicLong();
    private volatile boolean completed;

    public LiveStreams(int maxStreams, int bufferMessages, long streamBytes, long totalBytes) {
        this.maxStreams = maxStreams;
        this.bufferMessages = bufferMessages;
        this.streamBytes = streamBytes;
        this.totalBytes = totalBytes;
    }

    /** The streams of a REST API with {@code config}; none when it is off (null). */
    public static LiveStreams of(RestConfig config) {
        return config == null ? new LiveStreams(0, 1, 1, 1)
                : new LiveStreams(config.maxStreams(), config.streamBufferMessages(), config.streamBufferBytes(), config.streamsMemoryBytes());
    }

    /** Topics with at least one open stream (an entry per topic, removed with its last stream). */
    int topicCount() {
        return byTopic.size();
    }

    /** True when someone listens on the topic; lets the node skip rendering otherwise. */
    public boolean hasListeners(String topic) {
        Set<Stream> streams = byTopic.get(topic);
        return streams != null && !streams.isEmpty();
    }

    /**
     * @param disconnect closes the reader's connection; called at most once, when the reader is stuck
     * @return the events (whole SSE frames) for one new reader, to be requested one at a time as each is written;
     * null when the stream limit is reached
     */
    public Flux<byte[]> open(String topic, Runnable disconnect) {
        if (open.incrementAndGet() > maxStreams) {
            open.decrementAndGet();
            return null;
        }
        Stream stream = new Stream(Sinks.many().unicast().onBackpressureBuffer(Queues.<byte[]>get(bufferMessages).get()), disconnect);
        // added inside compute, so that a topic's last stream closing at the same moment cannot drop the set this one
        // joins
        byTopic.compute(topic, (t, streams) -> {
            Set<Stream> joined = streams == null ? new CopyOnWriteArraySet<>() : streams;
            joined.add(stream);
            return joined;
        });
        if (completed) {
            // opened as the node began to shut down, after completeAll() went by: ends at once, or REST's drain
            // would wait its whole grace for a stream nobody completes
            stream.sink.tryEmitComplete();
        }
        return stream.sink.asFlux()
                .doOnNext(event -> stream.taken(event.length))
                .doFinally(signal -> {
                    // a topic's entry goes with its last stream: topics streamed once do not stay behind
                    byTopic.computeIfPresent(topic, (t, streams) -> {
                        streams.remove(stream);
                        return streams.isEmpty() ? null : streams;
                    });
                    stream.close();
                    open.decrementAndGet();
                });
    }

    /** Offers one event (a whole SSE frame) to every reader of the topic. */
    public void publish(String topic, byte[] event) {
        Set<Stream> streams = byTopic.get(topic);
        if (streams == null) {
            return;
        }
        for (Stream stream : streams) {
            if (stream.offer(event)) {
                stream.consecutiveDrops.set(0);
            } else {
                dropped.incrementAndGet();
                if (stream.consecutiveDrops.incrementAndGet() >= bufferMessages && stream.disconnected.compareAndSet(false, true)) {
                    // completing the sink would not help: the completion queues behind the events the reader never takes
                    disconnected.incrementAndGet();
                    stream.disconnect.run();
                }
            }
        }
    }

    /** Ends every stream, and every stream opened from now on as soon as it opens (shutdown). */
    public void completeAll() {
        completed = true; // before the streams are gone through: open() adds its stream, then reads this
        byTopic.values().forEach(streams -> streams.forEach(stream -> stream.sink.tryEmitComplete()));
    }

    public int openStreams() {
        return open.get();
    }

    /** Bytes of events waiting for their readers, all streams together. */
    public long bufferedBytes() {
        return buffered.get();
    }

    public long dropped() {
        return dropped.get();
    }

    public long disconnected() {
        return disconnected.get();
    }

    /** Adds {@code n} to {@code counter} unless that would pass {@code limit} (readers take concurrently). */
    private static boolean tryAdd(AtomicLong counter, long n, long limit) {
        while (true) {
            long now = counter.get();
            if (now + n > limit) {
                return false;
            }
            if (counter.compareAndSet(now, now + n)) {
                return true;
            }
        }
    }

    private final class Stream {
        final Sinks.Many<byte[]> sink;
        final Runnable disconnect;
        final AtomicInteger consecutiveDrops = new AtomicInteger();
        final AtomicBoolean disconnected = new AtomicBoolean();
        final AtomicLong bytes = new AtomicLong();
        volatile boolean closed;

        Stream(Sinks.Many<byte[]> sink, Runnable disconnect) {
            this.sink = sink;
            this.disconnect = disconnect;
        }

        /** Buffers the event unless a bound says no; synchronized with {@link #close()} so that no byte is counted twice. */
        synchronized boolean offer(byte[] event) {
            long n = event.length;
            long held = bytes.get();
            // an empty stream takes one event whatever its size; the total bound holds for everyone
            if (closed || (held > 0 && held + n > streamBytes) || !tryAdd(buffered, n, totalBytes)) {
                return false;
            }
            bytes.addAndGet(n);
            if (sink.tryEmitNext(event).isFailure()) { // the count bound, or a stream ending
                taken(n);
                return false;
            }
            return true;
        }

        void taken(long n) {
            bytes.addAndGet(-n);
            buffered.addAndGet(-n);
        }

        /** Gives back the bytes of the events the reader will never take. */
        synchronized void close() {
            if (!closed) {
                closed = true;
                buffered.addAndGet(-bytes.getAndSet(0));
            }
        }
    }
}
