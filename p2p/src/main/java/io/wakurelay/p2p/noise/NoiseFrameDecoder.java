package io.wakurelay.p2p.noise;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * Decrypts Noise transport messages ({@code uint16 length ‖ ciphertext ‖ 16-byte tag}, noise/README.md) into pooled
 * direct buffers of plaintext, one per message, passed on as they are: the muxer slices them, nothing copies them
 * after this. How the cipher is fed depends on whose it is ({@link CipherState#directBuffers()}):
 * <ul>
 * <li>Conscrypt's opens the ciphertext where it lies in the received bytes straight into the plaintext's pooled
 *     buffer: no copy at all.</li>
 * <li>The JDK's runs on two heap arrays of this decoder's: it copies direct buffers into new arrays of the message's
 *     size on every call (measured: ~265 kB allocated to decrypt 64 kB on JDK 17), so the ciphertext is copied into
 *     one array, decrypted into the other, and the plaintext copied into its pooled buffer: two copies at memory
 *     speed instead of allocation that grows with the traffic (docs/adr/0041).</li>
 * </ul>
 */
final class NoiseFrameDecoder extends ByteToMessageDecoder {
    private final CipherState receiver;
    private final NoiseCounters counters;
    private byte[] ciphertext; // the JDK's path only, made at its first message
    private byte[] plaintext;

    NoiseFrameDecoder(CipherState receiver, NoiseCounters counters) {
        this.receiver = receiver;
        this.counters = counters;
        setDiscardAfterReads(1);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        while (in.readableBytes() >= 2) {
            int start = in.readerIndex();
            int length = in.getUnsignedShort(start);
            if (length < NoiseFrameEncoder.TAG_BYTES) {
                in.skipBytes(in.readableBytes());
                throw new NoiseException("Noise message of " + length + " bytes cannot hold its 16-byte tag");
            }
            if (in.readableBytes() < 2 + length) {
                return;
            }
            int plaintextLength = length - NoiseFrameEncoder.TAG_BYTES;
            ByteBuf message = plaintextLength > 0 ? ctx.alloc().directBuffer(plaintextLength, plaintextLength) : null;
            try {
                if (receiver.directBuffers() && in.isDirect() && in.nioBufferCount() == 1
                        && (message == null || message.nioBufferCount() == 1)) {
                    // an empty message (only a tag) decrypts into an empty heap buffer: rare, and nothing to copy
                    ByteBuffer into = message == null ? ByteBuffer.allocate(0) : message.internalNioBuffer(0, plaintextLength);
                    receiver.decrypt(in.internalNioBuffer(start + 2, length), into);
                    if (message != null) {
                        message.writerIndex(plaintextLength);
                    }
                } else {
                    decryptThroughArrays(in, start + 2, length, message);
                }
            } catch (RuntimeException e) {
                if (message != null) {
                    message.release();
                }
                in.skipBytes(in.readableBytes());
                throw e;
            }
            in.skipBytes(2 + length);
            counters.decrypted(plaintextLength);
            if (message != null) {
                out.add(message);
            }
        }
    }

    /** The JDK's path (and any buffer the direct path cannot take): through this decoder's two heap arrays. */
    private void decryptThroughArrays(ByteBuf in, int index, int length, ByteBuf message) {
        if (ciphertext == null) {
            ciphertext = new byte[NoiseFrameEncoder.MAX_MESSAGE];
            plaintext = new byte[NoiseFrameEncoder.MAX_PLAINTEXT];
        }
        int plaintextLength = length - NoiseFrameEncoder.TAG_BYTES;
        in.getBytes(index, ciphertext, 0, length);
        receiver.decrypt(ByteBuffer.wrap(ciphertext, 0, length), ByteBuffer.wrap(plaintext, 0, plaintextLength));
        if (message != null) {
            message.writeBytes(plaintext, 0, plaintextLength);
        }
    }
}
