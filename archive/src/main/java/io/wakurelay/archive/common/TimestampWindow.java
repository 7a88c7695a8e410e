package io.wakurelay.archive.common;

import io.micrometer.core.instrument.Counter;
import io.wakurelay.protocol.Envelope;
import reactor.core.publisher.Flux;

import java.time.Duration;

/**
 * nwaku's archive window (waku/waku_archive/archive.nim, {@code validate}, {@code MaxMessageTimestampVariance}): the
 * relay accepts a message whatever its timestamp, as nwaku's relay does, and the archive skips one whose timestamp is
 * further than {@link io.wakurelay.archive.CoreConfig#timestampWindow()} from the time the node received it. Skipped
 * messages are counted in {@code waku_archive_errors_total} with nwaku's {@code type} labels. A message without a
 * timestamp is not judged (RocksDB keeps it under its receive time); a window of 0 lets every timestamp through.
 * Measured from the receive time, not from when the writer takes the message, so that a backlog behind a slow store
 * does not make messages too old to keep; applied before the write session, so that a skipped message takes no credit.
 */
public final class TimestampWindow {
    private final long windowNanos;
    private final Counter tooOld;
    private final Counter future;

    public TimestampWindow(Duration window, ArchiveMeters meters) {
        this.windowNanos = saturatedNanos(window);
        this.tooOld = meters.tooOld();
        this.future = meters.futureTimestamp();
    }

    /** {@code envelopes} without the messages the archive does not keep, each of those released and counted. */
    public Flux<Envelope> apply(Flux<Envelope> envelopes) {
        if (windowNanos == 0) {
            return envelopes;
        }
        // handle, not filter: a filtered element would go to the write stream's discard hook, this one is released here
        return envelopes.handle((envelope, sink) -> {
            String skipped = judge(envelope.message().timestamp(), envelope.receivedAtNanos());
            if (skipped == null) {
                sink.next(envelope);
                return;
            }
            (skipped.equals(ArchiveMeters.TOO_OLD) ? tooOld : future).increment();
            envelope.release();
        });
    }

    /**
     * Null when a message of {@code timestamp} received at {@code receivedNanos} is archived, else nwaku's reason
     * ({@link ArchiveMeters#TOO_OLD} or {@link ArchiveMeters#FUTURE}).
     */
    public String judge(long timestamp, long receivedNanos) {
        if (timestamp == 0 || windowNanos == 0) {
            return null;
        }
        // bounds saturate rather than wrap: a window of centuries must not turn into a bound on the other side
        long lower = saturated(receivedNanos, -windowNanos);
        long upper = saturated(receivedNanos, windowNanos);
        if (timestamp < lower) {
            return ArchiveMeters.TOO_OLD;
        }
        return timestamp > upper ? ArchiveMeters.FUTURE : null;
    }

    private static long saturated(long a, long b) {
        try {
            return Math.addExact(a, b);
        } catch (ArithmeticException e) {
            return b < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }

    private static long saturatedNanos(Duration window) {
        try {
            return window.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }
}
