package io.wakurelay.p2p;

import io.wakurelay.p2p.connection.Stream;
import io.wakurelay.p2p.connection.StreamHandler;
import io.wakurelay.p2p.connection.ProtocolHandler;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import io.wakurelay.p2p.mss.MultistreamHandler;
import io.wakurelay.p2p.mss.MultistreamSelect;
import io.wakurelay.p2p.mss.NegotiationException;
import io.wakurelay.p2p.mux.MplexSession;
import io.wakurelay.p2p.mux.MuxerEvents;
import io.wakurelay.p2p.mux.MuxerException;
import io.wakurelay.p2p.mux.MuxerLimits;
import io.wakurelay.p2p.mux.MuxerSession;
import io.wakurelay.p2p.mux.ProtocolRegistry;
import io.wakurelay.p2p.mux.YamuxSession;
import io.wakurelay.p2p.noise.NoiseException;
import io.wakurelay.p2p.noise.NoiseTestCodecs;
import io.wakurelay.p2p.wire.Uvarint;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Feeds the four decoders a peer's bytes reach (connection-level multistream-select, the Noise transport decoder,
 * the yamux and mplex sessions) with random, mutated, truncated and oversized input built from valid traffic,
 * delivered in one or several reads. Each input must be consumed quietly or end in the decoder's own typed error
 * ({@link NegotiationException}, {@link NoiseException}, {@link MuxerException}); anything else, a hang or a leaked
 * buffer (Netty's paranoid leak detector runs under every test) fails. {@code fuzz.inputs} inputs per decoder.
 */
class P2pDecoderFuzzTest {
    private static final int INPUTS = Integer.getInteger("fuzz.inputs", 25_000);
    private static final String ECHO = "/test/echo/1.0.0";
    private final Map<String, Integer> outcomes = new TreeMap<>();

    @Test
    void everyDecoderEndsEveryInputQuietlyOrWithItsTypedError() {
        SplittableRandom random = new SplittableRandom(20261203);
        assertTimeoutPreemptively(Duration.ofMinutes(5), () -> {
            fuzz("multistream", random, multistreamSeeds(),
                    () -> new MultistreamHandler(MultistreamSelect.listener(ECHO::equals), (ctx, p) -> { }));
            fuzz("noise", random, NoiseTestCodecs.transportMessages(), NoiseTestCodecs::decoder);
            fuzz("yamux", random, yamuxSeeds(), () -> muxer(false, "yamux"));
            fuzz("mplex", random, mplexSeeds(), () -> muxer(true, "mplex"));
        });
        System.out.printf("p2p fuzz: %d inputs per decoder, outcomes %s%n", INPUTS, outcomes);
        assertThat(outcomes.keySet()).anyMatch(k -> k.startsWith("multistream NegotiationException"))
                .anyMatch(k -> k.startsWith("noise NoiseException")).anyMatch(k -> k.startsWith("yamux violation"))
                .anyMatch(k -> k.startsWith("mplex violation")).anyMatch(k -> k.endsWith("consumed"))
                .noneMatch(k -> k.endsWith("closed"));
    }

    /** A muxer session that records each violation it ends the connection for. */
    private ChannelHandler muxer(boolean mplex, String name) {
        ProtocolRegistry registry = Map.<String, ProtocolHandler>of(ECHO, s -> new StreamHandler() {
            @Override
            public void onData(Stream stream, ByteBuf data) {
                stream.write(data);
            }
        })::get;
        MuxerLimits limits = new MuxerLimits(8, 8, Duration.ofSeconds(10), MuxerLimits.YAMUX_INITIAL_WINDOW, 1 << 20, 4 << 20);
        MuxerEvents events = new MuxerEvents() {
            @Override
            public void violation(MuxerException e) {
                outcomes.merge(name + " violation " + e.reason(), 1, Integer::sum);
            }
        };
        return mplex ? new MplexSession(false, registry, limits, events) : new YamuxSession(false, registry, limits, events);
    }

    private void fuzz(String name, SplittableRandom random, byte[][] seeds, Supplier<ChannelHandler> decoder) {
        for (int i = 0; i < INPUTS; i++) {
            byte[] input = mutate(random, seeds);
            EmbeddedChannel channel = new EmbeddedChannel(decoder.get());
            String outcome;
            try {
                int at = 0;
                while (at < input.length && channel.isActive()) {
                    int n = random.nextInt(1, input.length - at + 1);
                    ByteBuf chunk = PooledByteBufAllocator.DEFAULT.directBuffer(n).writeBytes(input, at, n);
                    at += n;
                    channel.writeInbound(chunk);
                    channel.runPendingTasks();
                }
                // a muxer that closes the connection has recorded its violation; anything else closing it is a bug
                outcome = channel.isActive() ? "consumed" : name.endsWith("x") ? null : "closed";
            } catch (DecoderException e) {
                outcome = typed(name, e.getCause());
            } catch (RuntimeException e) {
                outcome = typed(name, e);
            } finally {
                channel.finishAndReleaseAll();
            }
            if (outcome != null) {
                outcomes.merge(name + " " + outcome, 1, Integer::sum);
            }
        }
    }

    private static String typed(String decoder, Throwable cause) {
        boolean expected = switch (decoder) {
            case "multistream" -> cause instanceof NegotiationException;
            case "noise" -> cause instanceof NoiseException;
            default -> cause instanceof MuxerException;
        };
        if (!expected) {
            throw new AssertionError(decoder + " failed with an untyped error", cause);
        }
        return cause.getClass().getSimpleName();
    }

    private static byte[] mutate(SplittableRandom random, byte[][] seeds) {
        byte[] base = seeds[random.nextInt(seeds.length)];
        switch (random.nextInt(6)) {
            case 0 -> {
                byte[] b = new byte[random.nextInt(96)];
                random.nextBytes(b);
                return b;
            }
            case 1 -> {
                return Arrays.copyOf(base, random.nextInt(base.length + 1));
            }
            case 2 -> { // a length field blown up
                byte[] b = base.clone();
                if (b.length > 2) {
                    int at = random.nextInt(b.length - 1);
                    b[at] = (byte) 0xff;
                    b[at + 1] = (byte) 0xff;
                }
                return b;
            }
            case 3 -> { // twice in a row
                byte[] b = Arrays.copyOf(base, base.length * 2);
                System.arraycopy(base, 0, b, base.length, base.length);
                return b;
            }
            default -> {
                byte[] b = base.clone();
                for (int f = random.nextInt(1, 4); f > 0 && b.length > 0; f--) {
                    b[random.nextInt(b.length)] ^= (byte) random.nextInt(1, 256);
                }
                return b;
            }
        }
    }

    private static byte[] bytes(ByteBuf b) {
        byte[] out = new byte[b.readableBytes()];
        b.readBytes(out);
        b.release();
        return out;
    }

    private static byte[][] multistreamSeeds() {
        ByteBuf ok = Unpooled.buffer();
        MultistreamSelect.writeMessage(ok, MultistreamSelect.PROTOCOL_ID);
        MultistreamSelect.writeMessage(ok, "/other/1.0.0");
        MultistreamSelect.writeMessage(ok, ECHO);
        ok.writeCharSequence("data after the agreement", StandardCharsets.UTF_8);
        ByteBuf ls = Unpooled.buffer();
        MultistreamSelect.writeMessage(ls, MultistreamSelect.PROTOCOL_ID);
        MultistreamSelect.writeMessage(ls, "ls");
        return new byte[][]{bytes(ok), bytes(ls)};
    }

    private static byte[][] yamuxSeeds() {
        ByteBuf negotiation = Unpooled.buffer();
        MultistreamSelect.writeMessage(negotiation, MultistreamSelect.PROTOCOL_ID);
        MultistreamSelect.writeMessage(negotiation, ECHO);
        negotiation.writeCharSequence("hello", StandardCharsets.UTF_8);
        byte[] payload = bytes(negotiation);
        ByteBuf open = Unpooled.buffer();
        yamux(open, 1, 1, 1, payload.length).writeBytes(payload);
        yamux(open, 1, 0, 1, 300_000);
        yamux(open, 2, 1, 0, 77);
        yamux(open, 0, 4, 1, 0);
        yamux(open, 3, 0, 0, 0);
        ByteBuf update = Unpooled.buffer();
        yamux(update, 1, 1, 3, 1 << 20);
        yamux(update, 0, 8, 3, 0);
        return new byte[][]{bytes(open), bytes(update)};
    }

    private static ByteBuf yamux(ByteBuf out, int type, int flags, int stream, long length) {
        return out.writeByte(0).writeByte(type).writeShort(flags).writeInt(stream).writeInt((int) length);
    }

    private static byte[][] mplexSeeds() {
        ByteBuf negotiation = Unpooled.buffer();
        MultistreamSelect.writeMessage(negotiation, MultistreamSelect.PROTOCOL_ID);
        MultistreamSelect.writeMessage(negotiation, ECHO);
        negotiation.writeCharSequence("hello", StandardCharsets.UTF_8);
        byte[] payload = bytes(negotiation);
        ByteBuf out = Unpooled.buffer();
        mplex(out, 3, 0, "3".getBytes(StandardCharsets.US_ASCII));
        mplex(out, 3, 2, payload);
        mplex(out, 3, 4, new byte[0]);
        mplex(out, 5, 6, new byte[0]);
        ByteBuf other = Unpooled.buffer();
        mplex(other, 1, 0, new byte[0]);
        mplex(other, 1, 2, new byte[]{1, 2, 3});
        mplex(other, 9, 1, new byte[]{4});
        return new byte[][]{bytes(out), bytes(other)};
    }

    private static void mplex(ByteBuf out, long id, int flag, byte[] data) {
        Uvarint.write(out, (id << 3) | flag);
        Uvarint.write(out, data.length);
        out.writeBytes(data);
    }
}
