package io.wakurelay.node;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.wakurelay.protocol.Envelope;
import reactor.core.publisher.Flux;

import java.time.Duration;

/**
 * nwaku's archive window (waku_archive's {@code validate}, {@code MaxMessageTimestampVariance}): the relay accepts a
 * message whatever its timestamp, as nwaku's relay does, and the archive skips one whose timestamp is further than
 * {@code --max-clock-drift} from the time this node received it. Skipped messages are counted in
 * {@code waku_archive_errors_total} with nwaku's {@code type} labels. A message without a timestamp is archived (under
 * its receive time); a window of 0 archives whatever the timestamp. Measured from the receive time, not from when the
 * archive takes the message, so that a backlog behind a slow disk does not make messages too old to keep.
 */
final class ArchiveTimestampWindow {
    /** nwaku's labels (waku/waku_archive/archive_metrics.nim). */
    static final String TOO_OLD = "invalid_message_too_old";
    static final String FUTURE = "invalid_message_future_timestamp";

    private final long windowNanos;
    private final Counter tooOld;
    private final Counter future;

    ArchiveTimestampWindow(Duration window, MeterRegistry registry) {
        this.windowNanos = saturatedNanos(window);
        // the archive registers the same name (ArchiveMeters, with the insert and retention failures): same description
        String description = "archive failures: batches that failed to commit (retried), retention passes that "
                + "failed, messages not archived for their timestamp";
        this.tooOld = Counter.builder("waku.archive.errors").tag("type", TOO_OLD).description(description).register(registry);
        this.future = Counter.builder("waku.archive.errors").tag("type", FUTURE).description(description).register(registry);
    }

    /** {@code accepted} without the messages the archive does not keep, each of those released and counted. */
    Flux<Envelope> apply(Flux<Envelope> accepted) {
        if (windowNanos == 0) {
            return accepted;
        }
        // handle, not filter: a filtered element would go to the archive's discard hook, this one is released here
        return accepted.handle((envelope, sink) -> {
            String skipped = judge(envelope.message().timestamp(), envelope.receivedAtNanos());
            if (skipped == null) {
                sink.next(envelope);
                return;
            }
            (skipped.equals(TOO_OLD) ? tooOld : future).increment();
            envelope.release();
        });
    }

    /** Null when a message of {@code timestamp} received at {@code receivedNanos} is archived, else nwaku's reason. */
    String judge(long timestamp, long receivedNanos) {
        if (timestamp == 0 || windowNanos == 0) {
            return null;
        }
        // bounds saturate rather than wrap: a window of centuries must not turn into a bound on the other side
        long lower = saturated(receivedNanos, -windowNanos);
        long upper = saturated(receivedNanos, windowNanos);
        if (timestamp < lower) {
            return TOO_OLD;
        }
        return timestamp > upper ? FUTURE : null;
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
