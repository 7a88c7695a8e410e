package io.wakurelay.rln.validation;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.rln.RlnConfig;
import io.wakurelay.rln.RlnVectors;
import org.junit.jupiter.api.Test;

import java.lang.ref.WeakReference;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/** RLN's validation meters, every one readable for as long as they are registered. */
class RlnMetricsTest {
    @Test
    void theNullifierLogGaugeReadsTheLogAfterGarbageCollections() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        RlnConfig config = RlnConfig.DEFAULTS;
        NullifierLog log = new NullifierLog(config.nullifiersPerEpoch(), config.epochSizeSec(), config.maxTimestampGap());
        // a supplier made for the gauge alone, as RlnRelay passes it
        new RlnMetrics(registry, List.of(RlnVectors.VECTORS_PUBSUB_TOPIC), log::size);

        WeakReference<Object> sentinel = new WeakReference<>(new Object());
        for (int i = 0; i < 100 && sentinel.get() != null; i++) {
            System.gc();
            LockSupport.parkNanos(10_000_000);
        }
        assertThat(sentinel.get()).as("collected").isNull();

        assertThat(registry.get("waku.rln.nullifier.log.entries").gauge().value()).isEqualTo(0.0);
    }
}
