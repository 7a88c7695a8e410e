package io.wakurelay.p2p.echo;

import io.netty.buffer.ByteBuf;
import io.wakurelay.p2p.connection.ProtocolHandler;
import io.wakurelay.p2p.connection.Stream;
import io.wakurelay.p2p.connection.StreamHandler;

/**
 * {@code /wakurelay/echo/1.0.0}, a diagnostic protocol for interop tests and transport benchmarks (a node does not
 * serve it): every byte is written back; reading pauses while the echo cannot be written, and the write side closes
 * when the peer's does.
 */
public final class EchoProtocol {
    public static final String ID = "/wakurelay/echo/1.0.0";

    private EchoProtocol() {
    }

    /** The echoing side; also the server of libp2p ping, whose 32-byte messages are echoed the same way. */
    public static ProtocolHandler server() {
        return stream -> echoing(() -> { });
    }

    /** One stream's echoing handler, which runs {@code onClosed} once its stream has ended. */
    public static StreamHandler echoing(Runnable onClosed) {
        return new StreamHandler() {
            @Override
            public void onData(Stream s, ByteBuf data) {
                s.write(data);
                if (!s.isWritable()) {
                    s.pauseReading();
                }
            }

            @Override
            public void onWritabilityChanged(Stream s) {
                if (s.isWritable()) {
                    s.resumeReading();
                }
            }

            @Override
            public void onRemoteClosed(Stream s) {
                s.closeWrite();
            }

            @Override
            public void onClosed(Stream s, Throwable cause) {
                onClosed.run();
            }
        };
    }
}
