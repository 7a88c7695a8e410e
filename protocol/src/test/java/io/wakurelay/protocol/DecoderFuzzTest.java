package io.wakurelay.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import io.wakurelay.testkit.TestMessages;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Feeds the whole receive-side decoding (frame splitting, Frame parse, message decode and validation)
 * with random, mutated, truncated and oversized inputs. Every input must be either accepted or refused
 * with a {@link ProtocolViolation}; anything else thrown, a hang, or a leaked buffer fails the test.
 */
class DecoderFuzzTest {
    private static final int INPUTS = Integer.getInteger("fuzz.inputs", 100_000);
    private static final int MAX_FRAME = 4096;

    private final PathCounters counters = new PathCounters();
    private final ProtocolLimits limits = new ProtocolLimits(MAX_FRAME, 2048, 256, Duration.ZERO);
    private final EnvelopeDecoder decoder = new EnvelopeDecoder(new MessageValidator(limits, () -> 0), counters);
    private final Map<Violation, Integer> refusals = new EnumMap<>(Violation.class);
    private int accepted;

    @Test
    void everyInputIsAcceptedOrRefusedWithAProtocolViolation() {
        SplittableRandom random = new SplittableRandom(20261202);
        byte[][] seeds = validFrames();
        assertTimeoutPreemptively(Duration.ofMinutes(5), () -> {
            for (int i = 0; i < INPUTS; i++) {
                feed(input(random, seeds), random);
            }
        });
        assertThat(accepted + refusals.values().stream().mapToInt(Integer::intValue).sum()).isGreaterThanOrEqualTo(INPUTS);
        assertThat(accepted).as("mutations keep some inputs valid").isPositive();
        assertThat(refusals).containsKeys(Violation.FRAME_TOO_LARGE, Violation.TRUNCATED_FRAME, Violation.MALFORMED_FRAME,
                Violation.MALFORMED_MESSAGE, Violation.MALFORMED_LENGTH_PREFIX);
        System.out.printf("fuzz: %d inputs, %d accepted, refused %s%n", INPUTS, accepted, refusals);
    }

    private byte[][] validFrames() {
        EnvelopeEncoder encoder = new EnvelopeEncoder(new MessageValidator(limits, () -> 0), new PathCounters());
        byte[][] frames = new byte[8][];
        for (int i = 0; i < frames.length; i++) {
            Envelope e = encoder.encode(TestMessages.PUBSUB_TOPIC, TestMessages.message(i, i * 200, 1), PooledByteBufAllocator.DEFAULT);
            ByteBuf f = e.retainedFrame();
            frames[i] = new byte[f.readableBytes()];
            f.readBytes(frames[i]);
            f.release();
            e.release();
        }
        return frames;
    }

    private static byte[] input(SplittableRandom random, byte[][] seeds) {
        byte[] base = seeds[random.nextInt(seeds.length)];
        switch (random.nextInt(6)) {
            case 0 -> { // random bytes
                byte[] b = new byte[random.nextInt(64)];
                random.nextBytes(b);
                return b;
            }
            case 1 -> { // truncated valid frame
                return java.util.Arrays.copyOf(base, random.nextInt(base.length));
            }
            case 2 -> { // oversized length prefix
                return new byte[]{(byte) 0xff, (byte) 0xff, (byte) random.nextInt(1, 128)};
            }
            case 3 -> { // a prefix that never ends
                byte[] b = new byte[random.nextInt(5, 12)];
                java.util.Arrays.fill(b, (byte) 0x80);
                return b;
            }
            default -> { // valid frame with a few flipped bytes, sometimes twice in a row
                byte[] b = random.nextBoolean() ? base.clone() : concat(base, base);
                int flips = random.nextInt(1, 4);
                for (int f = 0; f < flips; f++) {
                    b[random.nextInt(b.length)] ^= (byte) random.nextInt(1, 256);
                }
                return b;
            }
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] c = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }

    private void feed(byte[] bytes, SplittableRandom random) {
        EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(MAX_FRAME));
        try {
            // deliver in one or two reads, as TCP might
            int cut = bytes.length == 0 ? 0 : random.nextInt(bytes.length + 1);
            write(channel, bytes, 0, cut);
            write(channel, bytes, cut, bytes.length - cut);
            channel.finish();
        } catch (DecoderException e) {
            refused(e.getCause());
        } finally {
            drain(channel);
            channel.finishAndReleaseAll();
        }
    }

    private void write(EmbeddedChannel channel, byte[] bytes, int offset, int length) {
        if (length == 0) {
            return;
        }
        ByteBuf in = PooledByteBufAllocator.DEFAULT.directBuffer(length);
        in.writeBytes(bytes, offset, length);
        channel.writeInbound(in);
        drain(channel);
    }

    private void drain(EmbeddedChannel channel) {
        for (ByteBuf frame; (frame = channel.readInbound()) != null; ) {
            try {
                if (FrameCodec.parse(frame) instanceof InboundFrame.Publish publish) {
                    decoder.decode(frame, publish).release();
                }
                accepted++;
            } catch (ProtocolViolation e) {
                refused(e);
            } finally {
                frame.release();
            }
        }
    }

    private void refused(Throwable cause) {
        if (!(cause instanceof ProtocolViolation violation)) {
            throw new AssertionError("decoding threw something other than a ProtocolViolation", cause);
        }
        refusals.merge(violation.violation(), 1, Integer::sum);
    }
}
