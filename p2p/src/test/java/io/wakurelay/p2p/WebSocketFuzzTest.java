package io.wakurelay.p2p;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import io.wakurelay.p2p.ws.WebSocketConfig;
import io.wakurelay.p2p.ws.WebSocketEvents;
import io.wakurelay.p2p.ws.WebSocketException;
import io.wakurelay.p2p.ws.WebSocketTransport;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Feeds the listening side of the WebSocket transport (HTTP codec, upgrade, frame decoder, {@code WebSocketFrames})
 * random, mutated, truncated and doubled input built from an upgrade and its frames, in one or several reads. Each
 * input must be consumed, answered with a 4xx and closed, or end in a {@link WebSocketException}; anything else, a
 * hang or a leaked buffer (Netty's paranoid leak detector) fails. {@code fuzz.inputs} / 5 inputs.
 */
class WebSocketFuzzTest {
    private static final int INPUTS = Integer.getInteger("fuzz.inputs", 25_000) / 5;
    private static final WebSocketTransport TRANSPORT = WebSocketTransport.create(
            WebSocketConfig.DEFAULTS.toBuilder().listen(true).build(), new WebSocketEvents() {
                @Override
                public void requestRefused(String reason) {
                }

                @Override
                public void pongDropped() {
                }

                @Override
                public void readPaused(String reason) {
                }

                @Override
                public void renegotiationRefused() {
                }
            });
    private final Map<String, Integer> outcomes = new TreeMap<>();

    /** The end of the pipeline: takes libp2p's bytes, records how the input ended. */
    private final class Sink extends ChannelInboundHandlerAdapter {
        String outcome;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ReferenceCountUtil.release(msg);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (!(cause instanceof WebSocketException w)) {
                throw new AssertionError("an untyped error", cause);
            }
            outcome = w.reason();
            ctx.close();
        }
    }

    @Test
    void theWebSocketPortEndsEveryInputQuietlyWithA4xxOrWithItsTypedError() {
        SplittableRandom random = new SplittableRandom(20261204);
        byte[][] seeds = seeds();
        assertTimeoutPreemptively(Duration.ofMinutes(3), () -> {
            for (int i = 0; i < INPUTS; i++) {
                fuzzOne(random, mutate(random, seeds));
            }
        });
        System.out.printf("websocket fuzz: %d inputs, outcomes %s%n", INPUTS, outcomes);
        assertThat(outcomes.keySet()).contains("consumed", "upgraded", WebSocketException.UPGRADE_FAILED,
                WebSocketException.TEXT_FRAME, WebSocketException.PROTOCOL_ERROR);
    }

    private void fuzzOne(SplittableRandom random, byte[] input) {
        Sink sink = new Sink();
        EmbeddedChannel channel = new EmbeddedChannel();
        boolean[] upgraded = {false};
        channel.pipeline().addLast("end", sink);
        TRANSPORT.installListening(channel.pipeline(), "end", () -> upgraded[0] = true);
        try {
            int at = 0;
            while (at < input.length && channel.isActive()) {
                int n = random.nextInt(1, input.length - at + 1);
                ByteBuf chunk = PooledByteBufAllocator.DEFAULT.directBuffer(n).writeBytes(input, at, n);
                at += n;
                channel.writeInbound(chunk);
                channel.runPendingTasks();
            }
        } finally {
            channel.finishAndReleaseAll();
        }
        String outcome = sink.outcome != null ? sink.outcome : upgraded[0] ? "upgraded" : "consumed";
        outcomes.merge(outcome, 1, Integer::sum);
    }

    private static byte[][] seeds() {
        String upgrade = RawWebSocket.upgradeRequest("/", 8000);
        ByteArrayOutputStream session = new ByteArrayOutputStream();
        session.writeBytes(upgrade.getBytes(StandardCharsets.US_ASCII));
        session.writeBytes(RawWebSocket.frame(RawWebSocket.BINARY, "\u0013/multistream/1.0.0\n".getBytes(StandardCharsets.US_ASCII)));
        session.writeBytes(RawWebSocket.frame(0x9, new byte[]{1, 2}));                   // ping
        session.writeBytes(RawWebSocket.frame(RawWebSocket.TEXT, "text".getBytes(StandardCharsets.US_ASCII)));
        session.writeBytes(RawWebSocket.frame(0x8, new byte[]{0x03, (byte) 0xe8}));     // close 1000
        byte[] plain = "GET /index.html HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        byte[] wrongPath = RawWebSocket.upgradeRequest("/chat", 8000).getBytes(StandardCharsets.US_ASCII);
        return new byte[][]{session.toByteArray(), plain, wrongPath};
    }

    private static byte[] mutate(SplittableRandom random, byte[][] seeds) {
        byte[] base = seeds[random.nextInt(seeds.length)];
        switch (random.nextInt(5)) {
            case 0 -> {
                byte[] b = new byte[random.nextInt(200)];
                random.nextBytes(b);
                return b;
            }
            case 1 -> {
                return Arrays.copyOf(base, random.nextInt(base.length + 1));
            }
            case 2 -> {
                byte[] b = Arrays.copyOf(base, base.length * 2);
                System.arraycopy(base, 0, b, base.length, base.length);
                return b;
            }
            case 3 -> {
                return base;
            }
            default -> {
                byte[] b = base.clone();
                for (int f = random.nextInt(1, 4); f > 0; f--) {
                    b[random.nextInt(b.length)] ^= (byte) random.nextInt(1, 256);
                }
                return b;
            }
        }
    }
}
