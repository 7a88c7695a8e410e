package io.wakurelay.archive.bench;

import com.google.protobuf.UnsafeByteOperations;
import io.netty.buffer.PooledByteBufAllocator;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.EnvelopeEncoder;
import io.wakurelay.protocol.MessageValidator;
import io.wakurelay.protocol.PathCounters;
import io.wakurelay.protocol.ProtocolLimits;
import io.wakurelay.protocol.proto.WakuMessage;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/** Envelopes in pooled direct buffers, as the relay hands them to the archive, and temp-dir housekeeping. */
final class BenchEnvelopes {
    static final String PUBSUB_TOPIC = "/waku/2/rs/0/0";
    static final long BASE_TIME = 1_700_000_000_000_000_000L;

    private static final EnvelopeEncoder ENCODER = new EnvelopeEncoder(
            new MessageValidator(ProtocolLimits.DEFAULTS.withMaxClockDrift(Duration.ZERO), System::nanoTime), new PathCounters());

    private BenchEnvelopes() {
    }

    /** A message with {@code payloadSize} random bytes (payloads are mostly encrypted: incompressible). */
    static Envelope envelope(SplittableRandom random, String contentTopic, int payloadSize, long timestamp) {
        byte[] payload = new byte[payloadSize];
        random.nextBytes(payload);
        WakuMessage message = WakuMessage.newBuilder()
                .setPayload(UnsafeByteOperations.unsafeWrap(payload))
                .setContentTopic(contentTopic)
                .setTimestamp(timestamp)
                .build();
        return ENCODER.encode(PUBSUB_TOPIC, message, PooledByteBufAllocator.DEFAULT);
    }

    static void deleteRecursively(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
