package io.wakurelay.p2p.noise;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * Decrypts Noise transport messages ({@code uint16 length ‖ ciphertext ‖ 16-byte tag}, noise/README.md) into pooled
 * direct buffers of plaintext, one per message, passed on as they are: the muxer slices them, nothing copies them
 * after this. The cipher itself runs on two reused heap arrays: the JDK's ChaCha20-Poly1305 copies direct buffers
 * into new arrays of the message's size on every call (measured: ~265 kB allocated to decrypt 64 kB on JDK 17), so
 * the ciphertext is copied into one array, decrypted into the other, and the plaintext copied into its pooled
 * buffer: two copies at memory speed instead of allocation that grows with the traffic (docs/adr/0041).
 */
final class NoiseFrameDecoder extends ByteToMessageDecoder {
    private final CipherState receiver;
    private final NoiseCounters counters;
    private final byte[] ciphertext = new byte[NoiseFrameEncoder.MAX_MESSAGE];
    private final byte[] plaintext = new byte[NoiseFrameEncoder.MAX_PLAINTEXT];

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
            in.getBytes(start + 2, ciphertext, 0, length);
            try {
                receiver.decrypt(ByteBuffer.wrap(ciphertext, 0, length), ByteBuffer.wrap(plaintext, 0, plaintextLength));
            } catch (RuntimeException e) {
                in.skipBytes(in.readableBytes());
                throw e;
            }
            in.skipBytes(2 + length);
            counters.decrypted(plaintextLength);
            if (plaintextLength > 0) {
                ByteBuf message = ctx.alloc().directBuffer(plaintextLength, plaintextLength);
                message.writeBytes(plaintext, 0, plaintextLength);
                out.add(message);
            }
        }
    }
}
