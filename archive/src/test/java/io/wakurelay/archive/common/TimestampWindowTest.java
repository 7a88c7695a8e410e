package io.wakurelay.archive.common;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.archive.TestEnvelopes;
import io.wakurelay.protocol.Envelope;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Timestamps are judged where nwaku judges them: its relay (and REST, and lightpush) takes a message whatever its
 * timestamp, and only its archive skips one more than 20 s from its clock (waku_archive, MaxMessageTimestampVariance),
 * counted in waku_archive_errors{type}.
 */
class TimestampWindowTest {
    private static final long SECOND = 1_000_000_000L;

    private static TimestampWindow window(Duration width, SimpleMeterRegistry registry) {
        return new TimestampWindow(width, new ArchiveMeters(registry, () -> 0, () -> 0));
    }

    @Test
    void theWindowIsNwakusAroundTheReceiveTimeAndAMessageWithoutTimestampIsAlwaysArchived() {
        TimestampWindow window = window(Duration.ofSeconds(20), new SimpleMeterRegistry());
        long received = 1_800_000_000L * SECOND;
        assertThat(window.judge(received - 20 * SECOND, received)).as("the bounds are in").isNull();
        assertThat(window.judge(received + 20 * SECOND, received)).isNull();
        assertThat(window.judge(received - 20 * SECOND - 1, received)).isEqualTo(ArchiveMeters.TOO_OLD);
        assertThat(window.judge(received + 20 * SECOND + 1, received)).isEqualTo(ArchiveMeters.FUTURE);
        assertThat(window.judge(0, received)).isNull();
        assertThat(window.judge(Long.MIN_VALUE, received)).isEqualTo(ArchiveMeters.TOO_OLD);
        assertThat(window.judge(Long.MAX_VALUE, received)).isEqualTo(ArchiveMeters.FUTURE);

        TimestampWindow centuries = window(Duration.ofDays(365L * 400), new SimpleMeterRegistry());
        assertThat(centuries.judge(Long.MAX_VALUE, received)).as("a bound past the range saturates, it does not wrap")
                .isNull();
        assertThat(centuries.judge(received - 200L * 365 * 86_400 * SECOND, received)).isNull();
        TimestampWindow off = window(Duration.ZERO, new SimpleMeterRegistry());
        assertThat(off.judge(1, received)).as("0: archive whatever the timestamp").isNull();
    }

    @Test
    void aSkippedMessageIsReleasedAndCountedWithNwakusLabelAndTheOthersPassInOrder() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Envelope old = TestEnvelopes.envelope(1, 32, TestEnvelopes.BASE_TIME);
        long received = old.receivedAtNanos();
        Envelope fresh = TestEnvelopes.envelope(2, 32, received);
        Envelope future = TestEnvelopes.envelope(3, 32, received + 3600 * SECOND);
        Envelope undated = TestEnvelopes.withoutTimestamp(4);

        List<Envelope> passed = window(Duration.ofSeconds(20), registry).apply(Flux.just(old, fresh, future, undated))
                .collectList().block();

        assertThat(passed).containsExactly(fresh, undated);
        assertThat(old.refCnt()).as("released by the window").isZero();
        assertThat(future.refCnt()).isZero();
        assertThat(registry.get("waku.archive.errors").tag("type", ArchiveMeters.TOO_OLD).counter().count()).isEqualTo(1);
        assertThat(registry.get("waku.archive.errors").tag("type", ArchiveMeters.FUTURE).counter().count()).isEqualTo(1);
        passed.forEach(Envelope::release);
    }
}
