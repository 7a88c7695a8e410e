package io.wakurelay.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.wakurelay.testkit.TestMessages;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Feeds the message decode (WakuMessage parse and validation) with random, mutated, truncated and oversized
 * inputs, whole or split over a composite of two buffers as they arrive from the network. Every input must be
 * either accepted or refused with a {@link ProtocolViolation}; anything else thrown, a hang, or a leaked buffer
 * fails the test. (The relay's RPC reader and the p2p decoders have fuzz tests of their own.)
 */
class DecoderFuzzTest {
    private static final int INPUTS = Integer.getInteger("fuzz.inputs", 100_000);
    private static final String TOPIC = TestMessages.PUBSUB_TOPIC;

    private final PathCounters counters = new PathCounters();
    private final ProtocolLimits limits = new ProtocolLimits(1 << 20, 2048, 256, 2048, Duration.ZERO);
    private final EnvelopeDecoder decoder = new EnvelopeDecoder(new MessageValidator(limits, () -> 0), counters);
    private final Map<Violation, Integer> refusals = new EnumMap<>(Violation.class);
    private int accepted;

    @Test
    void everyInputIsAcceptedOrRefusedWithAProtocolViolation() {
        SplittableRandom random = new SplittableRandom(20261202);
        byte[][] seeds = validMessages();
        assertTimeoutPreemptively(Duration.ofMinutes(5), () -> {
            for (int i = 0; i < INPUTS; i++) {
                feed(input(random, seeds), random);
            }
        });
        assertThat(accepted + refusals.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(INPUTS);
        assertThat(accepted).as("mutations keep some inputs valid").isPositive();
        assertThat(refusals).containsKeys(Violation.MALFORMED_MESSAGE, Violation.MESSAGE_TOO_LARGE,
                Violation.INVALID_CONTENT_TOPIC);
        assertThat(counters.payloadCopies()).isZero();
        System.out.printf("fuzz: %d inputs, %d accepted, refused %s%n", INPUTS, accepted, refusals);
    }

    private byte[][] validMessages() {
        byte[][] messages = new byte[8][];
        for (int i = 0; i < messages.length; i++) {
            messages[i] = TestMessages.message(i, i * 200, 1).toByteArray();
        }
        return messages;
    }

    private static byte[] input(SplittableRandom random, byte[][] seeds) {
        byte[] base = seeds[random.nextInt(seeds.length)];
        switch (random.nextInt(5)) {
            case 0 -> { // random bytes
                byte[] b = new byte[random.nextInt(64)];
                random.nextBytes(b);
                return b;
            }
            case 1 -> { // truncated valid message
                return Arrays.copyOf(base, random.nextInt(base.length + 1));
            }
            case 2 -> { // oversized
                return Arrays.copyOf(base, 2049 + random.nextInt(100));
            }
            default -> { // valid message with a few flipped bytes
                byte[] b = base.clone();
                int flips = b.length == 0 ? 0 : random.nextInt(1, 4);
                for (int f = 0; f < flips; f++) {
                    b[random.nextInt(b.length)] ^= (byte) random.nextInt(1, 256);
                }
                return b;
            }
        }
    }

    private void feed(byte[] bytes, SplittableRandom random) {
        ByteBuf input = random.nextBoolean() ? whole(bytes) : split(bytes, random);
        try {
            decoder.decode(TOPIC, input, input).release();
            accepted++;
        } catch (ProtocolViolation e) {
            refusals.merge(e.violation(), 1, Integer::sum);
        } finally {
            input.release();
        }
    }

    private static ByteBuf whole(byte[] bytes) {
        return PooledByteBufAllocator.DEFAULT.directBuffer(Math.max(1, bytes.length)).writeBytes(bytes);
    }

    private static ByteBuf split(byte[] bytes, SplittableRandom random) {
        int cut = random.nextInt(bytes.length + 1);
        CompositeByteBuf composite = PooledByteBufAllocator.DEFAULT.compositeDirectBuffer();
        composite.addComponent(true, whole(Arrays.copyOfRange(bytes, 0, cut)));
        composite.addComponent(true, whole(Arrays.copyOfRange(bytes, cut, bytes.length)));
        return composite;
    }
}
