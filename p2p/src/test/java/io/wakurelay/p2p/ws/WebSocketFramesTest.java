package io.wakurelay.p2p.ws;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.ContinuationWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CorruptedWebSocketFrameException;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PongWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketCloseStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.util.ReferenceCountUtil;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link WebSocketFrames} on an {@link EmbeddedChannel}: frames to bytes and back, and what it refuses. */
class WebSocketFramesTest {
    private final List<String> events = new ArrayList<>();
    private final WebSocketEvents counting = new WebSocketEvents() {
        @Override
        public void requestRefused(String reason) {
            events.add("refused " + reason);
        }

        @Override
        public void pongDropped() {
            events.add("pong dropped");
        }

        @Override
        public void readPaused(String reason) {
            events.add("read paused " + reason);
        }

        @Override
        public void renegotiationRefused() {
            events.add("renegotiation refused");
        }
    };
    private final EmbeddedChannel channel = new EmbeddedChannel(new WebSocketFrames(counting));

    @AfterEach
    void close() {
        channel.finishAndReleaseAll();
    }

    private static ByteBuf bytes(String text) {
        return Unpooled.copiedBuffer(text, StandardCharsets.US_ASCII);
    }

    private String readText() {
        ByteBuf in = channel.readInbound();
        try {
            return in.toString(StandardCharsets.US_ASCII);
        } finally {
            in.release();
        }
    }

    @Test
    void binaryFramesAndTheirContinuationsGoOnAsTheirPayloadsAndWritesGoOutAsBinaryFrames() {
        channel.writeInbound(new BinaryWebSocketFrame(false, 0, bytes("/multistream")));
        channel.writeInbound(new ContinuationWebSocketFrame(true, 0, bytes("/1.0.0\n")));
        channel.writeInbound(new BinaryWebSocketFrame(Unpooled.EMPTY_BUFFER)); // nothing to pass on

        assertThat(readText()).isEqualTo("/multistream");
        assertThat(readText()).isEqualTo("/1.0.0\n");
        assertThat((Object) channel.readInbound()).isNull();

        channel.writeOutbound(bytes("/noise\n"));
        BinaryWebSocketFrame out = channel.readOutbound();
        assertThat(out.content().toString(StandardCharsets.US_ASCII)).isEqualTo("/noise\n");
        out.release();
    }

    @Test
    void aTextFrameEndsTheConnectionWithStatus1003() {
        assertThatThrownBy(() -> channel.writeInbound(new TextWebSocketFrame("hello"))).isInstanceOf(WebSocketException.class)
                .satisfies(e -> assertThat(((WebSocketException) e).reason()).isEqualTo(WebSocketException.TEXT_FRAME));
        channel.close();
        CloseWebSocketFrame closing = channel.readOutbound();
        assertThat(closing.statusCode()).isEqualTo(WebSocketCloseStatus.INVALID_MESSAGE_TYPE.code());
        closing.release();
    }

    @Test
    void aFrameOverTheBoundEndsTheConnectionWithStatus1009AndOtherBrokenFramingWith1002() {
        channel.pipeline().fireExceptionCaught(new CorruptedWebSocketFrameException(WebSocketCloseStatus.MESSAGE_TOO_BIG,
                "Max frame length of 1048576 has been exceeded."));
        assertThatThrownBy(channel::checkException).isInstanceOf(WebSocketException.class)
                .satisfies(e -> assertThat(((WebSocketException) e).reason()).isEqualTo(WebSocketException.FRAME_TOO_LARGE));
        channel.pipeline().fireExceptionCaught(new CorruptedWebSocketFrameException(WebSocketCloseStatus.PROTOCOL_ERROR,
                "unmasked client to server frame"));
        assertThatThrownBy(channel::checkException)
                .satisfies(e -> assertThat(((WebSocketException) e).reason()).isEqualTo(WebSocketException.PROTOCOL_ERROR));

        channel.close();
        CloseWebSocketFrame closing = channel.readOutbound();
        assertThat(closing.statusCode()).isEqualTo(WebSocketCloseStatus.PROTOCOL_ERROR.code());
        closing.release();
    }

    @Test
    void aPingIsAnsweredWithItsPayloadUnlessTheConnectionIsPastItsHighWaterMark() {
        channel.writeInbound(new PingWebSocketFrame(bytes("p1")));
        PongWebSocketFrame pong = channel.readOutbound();
        assertThat(pong.content().toString(StandardCharsets.US_ASCII)).isEqualTo("p1");
        pong.release();

        channel.config().setWriteBufferWaterMark(new WriteBufferWaterMark(1, 2));
        channel.write(bytes("queued, not flushed")); // makes the channel unwritable
        assertThat(channel.isWritable()).isFalse();
        channel.writeInbound(new PingWebSocketFrame(bytes("p2")));

        assertThat(events).containsExactly("pong dropped", "read paused unwritable");
        assertThat(channel.config().isAutoRead()).as("reading paused while unwritable").isFalse();
        channel.flush();
        channel.releaseOutbound();
        assertThat(channel.isWritable()).isTrue();
        assertThat(channel.config().isAutoRead()).as("reading again once writable").isTrue();
    }

    @Test
    void atMostOnePongWaitsToBeWrittenAndPingsMeanwhileAreDropped() {
        List<ChannelPromise> held = new ArrayList<>();
        EmbeddedChannel slow = new EmbeddedChannel(new ChannelOutboundHandlerAdapter() {
            @Override
            public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
                ReferenceCountUtil.release(msg);
                held.add(promise); // the socket takes nothing: the write stays pending
            }
        }, new WebSocketFrames(counting));
        try {
            for (int i = 0; i < 3; i++) {
                slow.writeInbound(new PingWebSocketFrame(bytes("p" + i)));
            }
            assertThat(held).hasSize(1);
            assertThat(events).containsExactly("pong dropped", "pong dropped");

            held.get(0).setSuccess();
            slow.writeInbound(new PingWebSocketFrame(bytes("p3")));
            assertThat(held).as("answered once the pong was written").hasSize(2);
            held.get(1).setSuccess();
        } finally {
            slow.finishAndReleaseAll();
        }
    }

    @Test
    void aCloseFrameIsAnsweredWithOneAndClosesTheConnection() {
        channel.writeInbound(new CloseWebSocketFrame(WebSocketCloseStatus.NORMAL_CLOSURE));

        assertThat(channel.isOpen()).isFalse();
        CloseWebSocketFrame answer = channel.readOutbound();
        assertThat(answer.statusCode()).isEqualTo(1000);
        answer.release();
    }
}
