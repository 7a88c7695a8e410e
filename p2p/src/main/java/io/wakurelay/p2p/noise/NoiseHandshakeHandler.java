package io.wakurelay.p2p.noise;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.wakurelay.p2p.wire.OpeningDecoder;
import io.wakurelay.p2p.crypto.PeerId;

import java.util.List;
import java.util.function.BiConsumer;

/**
 * The libp2p Noise XX handshake on a connection (noise/README.md): three messages, each behind a 2-byte length; the
 * responder's identity payload travels in the second, the initiator's in the third. When it is done the handler
 * puts the transport codec in its place, tells {@code onEstablished} who the peer is (which adds the next handler
 * after the codec), and removes itself; bytes the peer sent after its last handshake message go on to the codec.
 */
public final class NoiseHandshakeHandler extends OpeningDecoder {
    public static final String PROTOCOL_ID = "/noise";
    static final String ENCODER = "noise-encoder";
    static final String DECODER = "noise-decoder";
    private static final byte[] EMPTY = new byte[0];

    private final boolean initiator;
    private final NoiseIdentity identity;
    private final PeerId expected;
    private final NoiseCounters counters;
    private final BiConsumer<ChannelHandlerContext, SecureSession> onEstablished;
    private final NoiseHandshake handshake;
    private boolean firstReceived;

    /**
     * @param expected      the peer id a dialler was told to expect (null: any); another one fails the handshake with
     *                      {@link PeerIdMismatchException}
     * @param onEstablished called with the context of the transport decoder, once the codec is in place
     */
    public NoiseHandshakeHandler(boolean initiator, NoiseIdentity identity, PeerId expected, NoiseCounters counters,
                                 BiConsumer<ChannelHandlerContext, SecureSession> onEstablished) {
        this.initiator = initiator;
        this.identity = identity;
        this.expected = expected;
        this.counters = counters;
        this.onEstablished = onEstablished;
        this.handshake = identity.newHandshake(initiator);
    }

    @Override
    protected void open(ChannelHandlerContext ctx) {
        if (initiator) {
            send(ctx, handshake.writeMessage(EMPTY));
        }
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (in.readableBytes() < 2) {
            return;
        }
        int length = in.getUnsignedShort(in.readerIndex());
        if (in.readableBytes() < 2 + length) {
            return;
        }
        byte[] message = new byte[length];
        in.skipBytes(2);
        in.readBytes(message);
        if (initiator) {
            SecureSession peer = verify(handshake.readMessage(message));
            send(ctx, handshake.writeMessage(identity.payload()));
            established(ctx, peer);
        } else if (!firstReceived) {
            firstReceived = true;
            handshake.readMessage(message);
            send(ctx, handshake.writeMessage(identity.payload()));
        } else {
            established(ctx, verify(handshake.readMessage(message)));
        }
    }

    private SecureSession verify(byte[] payload) {
        NoisePayload.Verified verified = NoisePayload.verify(payload, handshake.remoteStaticKey());
        if (expected != null && !expected.equals(verified.peerId())) {
            throw new PeerIdMismatchException(expected, verified.peerId());
        }
        return new SecureSession(verified.peerId(), verified.key());
    }

    private void established(ChannelHandlerContext ctx, SecureSession peer) {
        CipherPair ciphers = handshake.split();
        ctx.pipeline().addAfter(ctx.name(), ENCODER, new NoiseFrameEncoder(ciphers.sender(), counters));
        ctx.pipeline().addAfter(ENCODER, DECODER, new NoiseFrameDecoder(ciphers.receiver(), counters));
        onEstablished.accept(ctx.pipeline().context(DECODER), peer);
        ctx.pipeline().remove(this);
    }

    private static void send(ChannelHandlerContext ctx, byte[] message) {
        ByteBuf framed = ctx.alloc().buffer(2 + message.length);
        framed.writeShort(message.length);
        framed.writeBytes(message);
        ctx.writeAndFlush(framed);
    }
}
