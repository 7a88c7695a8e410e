package io.wakurelay.p2p.noise;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler;

import java.nio.ByteBuffer;

/** Noise transport decoders and the messages they accept, for tests outside this package (the fuzz test). */
public final class NoiseTestCodecs {
    private static final byte[] KEY = new byte[32];

    static {
        for (int i = 0; i < KEY.length; i++) {
            KEY[i] = (byte) (i * 7 + 1);
        }
    }

    private NoiseTestCodecs() {
    }

    /** A decoder whose receiving cipher starts at nonce 0 of a fixed key. */
    public static ChannelHandler decoder() {
        return new NoiseFrameDecoder(new CipherState(KEY), NoiseCounters.NONE);
    }

    /** Byte streams of valid transport messages for {@link #decoder()}: each starts at nonce 0. */
    public static byte[][] transportMessages() {
        byte[][] streams = new byte[3][];
        int[][] sizes = {{0, 5, 1000}, {65_519}, {16, 70_000 % 65_519, 3}};
        for (int s = 0; s < streams.length; s++) {
            CipherState sender = new CipherState(KEY);
            ByteBuf out = Unpooled.buffer();
            for (int size : sizes[s]) {
                byte[] plain = new byte[size];
                for (int i = 0; i < size; i++) {
                    plain[i] = (byte) i;
                }
                ByteBuffer cipher = ByteBuffer.allocate(size + CipherState.TAG_LENGTH);
                sender.encrypt(ByteBuffer.wrap(plain), cipher);
                out.writeShort(size + CipherState.TAG_LENGTH).writeBytes(cipher.array());
            }
            streams[s] = new byte[out.readableBytes()];
            out.readBytes(streams[s]);
        }
        return streams;
    }
}
