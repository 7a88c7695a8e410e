package io.wakurelay.p2p.noise;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.util.ReferenceCountUtil;

import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayList;
import java.util.List;

/**
 * Encrypts what the connection writes into Noise transport messages. Writes are gathered until a flush (or a full
 * message's worth) so that a muxer header and its data go out as one message. The plaintext of one message is
 * gathered from the written buffers by one copy, into what the cipher works on in place
 * ({@link CipherState#directBuffers()}):
 * <ul>
 * <li>for Conscrypt's, a pooled direct buffer of this encoder's, sealed straight into the pooled buffer the socket
 *     writes;</li>
 * <li>for the JDK's, like the decoder, a heap array, sealed into a second one that is copied into the pooled buffer,
 *     because the JDK's cipher allocates in proportion to the message for direct buffers.</li>
 * </ul>
 * Messages hold at most 65,535 bytes with their tag, as the spec requires.
 */
final class NoiseFrameEncoder extends ChannelOutboundHandlerAdapter {
    static final int TAG_BYTES = 16;
    static final int MAX_MESSAGE = 65_535;
    static final int MAX_PLAINTEXT = MAX_MESSAGE - TAG_BYTES;

    private final CipherState sender;
    private final NoiseCounters counters;
    private CompositeByteBuf pending;
    private final List<ChannelPromise> promises = new ArrayList<>();
    private ByteBuf directPlaintext; // Conscrypt's path
    private byte[] plaintext; // the JDK's path, made at its first message
    private byte[] ciphertext;

    NoiseFrameEncoder(CipherState sender, NoiseCounters counters) {
        this.sender = sender;
        this.counters = counters;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        pending = ctx.alloc().compositeDirectBuffer(Integer.MAX_VALUE);
        if (sender.directBuffers()) {
            directPlaintext = ctx.alloc().directBuffer(MAX_PLAINTEXT, MAX_PLAINTEXT);
        }
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (!(msg instanceof ByteBuf data)) {
            ctx.write(msg, promise);
            return;
        }
        if (pending == null) {
            ReferenceCountUtil.release(msg);
            promise.tryFailure(new ClosedChannelException());
            return;
        }
        pending.addComponent(true, data);
        if (!promise.isVoid()) {
            promises.add(promise);
        }
        while (pending.readableBytes() >= MAX_PLAINTEXT) {
            encryptMessage(ctx, MAX_PLAINTEXT);
        }
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        if (pending != null) {
            while (pending.isReadable()) {
                encryptMessage(ctx, Math.min(pending.readableBytes(), MAX_PLAINTEXT));
            }
        }
        ctx.flush();
    }

    private void encryptMessage(ChannelHandlerContext ctx, int plaintextLength) {
        int length = plaintextLength + TAG_BYTES;
        ByteBuf message = ctx.alloc().directBuffer(2 + length, 2 + length);
        message.writeShort(length);
        try {
            if (directPlaintext != null && directPlaintext.nioBufferCount() == 1 && message.nioBufferCount() == 1) {
                directPlaintext.clear();
                pending.readBytes(directPlaintext, plaintextLength);
                sender.encrypt(directPlaintext.internalNioBuffer(0, plaintextLength), message.internalNioBuffer(2, length));
                message.writerIndex(2 + length);
            } else {
                encryptThroughArrays(plaintextLength, message);
            }
        } catch (RuntimeException e) {
            message.release();
            throw e;
        }
        pending.discardReadComponents();
        counters.encrypted(plaintextLength);
        if (!pending.isReadable() && !promises.isEmpty()) {
            List<ChannelPromise> done = new ArrayList<>(promises);
            promises.clear();
            ctx.write(message).addListener(f -> {
                for (ChannelPromise p : done) {
                    if (f.isSuccess()) {
                        p.trySuccess();
                    } else {
                        p.tryFailure(f.cause());
                    }
                }
            });
        } else {
            ctx.write(message, ctx.voidPromise());
        }
    }

    /** The JDK's path (and any buffer the direct path cannot take): through this encoder's two heap arrays. */
    private void encryptThroughArrays(int plaintextLength, ByteBuf message) {
        if (plaintext == null) {
            plaintext = new byte[MAX_PLAINTEXT];
            ciphertext = new byte[MAX_MESSAGE];
        }
        int length = plaintextLength + TAG_BYTES;
        pending.readBytes(plaintext, 0, plaintextLength);
        sender.encrypt(ByteBuffer.wrap(plaintext, 0, plaintextLength), ByteBuffer.wrap(ciphertext, 0, length));
        message.writeBytes(ciphertext, 0, length);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        if (pending != null) {
            pending.release();
            pending = null;
        }
        if (directPlaintext != null) {
            directPlaintext.release();
            directPlaintext = null;
        }
        ClosedChannelException closed = new ClosedChannelException();
        for (ChannelPromise p : promises) {
            p.tryFailure(closed);
        }
        promises.clear();
    }
}
