package io.wakurelay.services;

import com.google.protobuf.MessageLite;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.wakurelay.p2p.connection.Connection;
import io.wakurelay.p2p.Host;
import io.wakurelay.p2p.HostConfig;
import io.wakurelay.p2p.connection.Stream;
import io.wakurelay.p2p.connection.StreamHandler;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.p2p.wire.Uvarint;

import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A request sent by hand on a new stream, and everything that came back until the node closed its side or the
 * stream ended: for tests of what the services answer to requests no honest client sends.
 */
public final class RawExchange {
    /**
     * @param received    every byte the node wrote
     * @param remoteClosed true when the node closed its write side
     * @param resetCause  why the stream ended without a clean close (null when it did not)
     */
    public record Result(byte[] received, boolean remoteClosed, Throwable resetCause) {
        /** The one length-prefixed message the node answered; fails when there is not exactly one. */
        public byte[] message() {
            ByteBuf in = Unpooled.wrappedBuffer(received);
            long length = Uvarint.read(in);
            if (length < 0 || in.readableBytes() != length) {
                throw new AssertionError("not one length-prefixed message: " + received.length + " bytes, prefix " + length);
            }
            return Arrays.copyOfRange(received, in.readerIndex(), received.length);
        }
    }

    private RawExchange() {
    }

    /** A host that only dials (its own loopback address, so that the node sees a distinct peer address). */
    public static Host clientHost(int index) {
        return Host.start(HostConfig.builder().listenAddress(new InetSocketAddress("127.0.0." + (index + 2), 0))
                .handshakeTimeout(Duration.ofSeconds(5)).build(), PrivateKey.generateEd25519(), new SimpleMeterRegistry());
    }

    public static byte[] frame(MessageLite message) {
        return frame(message.toByteArray());
    }

    public static byte[] frame(byte[] body) {
        ByteBuf out = Unpooled.buffer();
        Uvarint.write(out, body.length);
        out.writeBytes(body);
        byte[] bytes = new byte[out.readableBytes()];
        out.readBytes(bytes);
        return bytes;
    }

    /**
     * Opens {@code protocol} to {@code node}, writes {@code bytes}, closes its side when {@code closeWrite}, and
     * waits until the node closes its side or the stream ends.
     */
    public static Result run(Host client, Multiaddr node, String protocol, byte[] bytes, boolean closeWrite,
                             Duration timeout) {
        Connection c = client.dial(node).block(Duration.ofSeconds(10));
        CompletableFuture<Result> done = new CompletableFuture<>();
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        Stream s = c.openStream(protocol, new StreamHandler() {
            @Override
            public void onData(Stream stream, ByteBuf data) {
                try {
                    byte[] chunk = new byte[data.readableBytes()];
                    data.readBytes(chunk);
                    synchronized (received) {
                        received.writeBytes(chunk);
                    }
                } finally {
                    data.release();
                }
            }

            @Override
            public void onRemoteClosed(Stream stream) {
                done.complete(new Result(bytes(received), true, null));
            }

            @Override
            public void onClosed(Stream stream, Throwable cause) {
                done.complete(new Result(bytes(received), false, cause));
            }
        }).block(Duration.ofSeconds(10));
        if (bytes.length > 0) {
            s.write(Unpooled.wrappedBuffer(bytes));
        }
        if (closeWrite) {
            s.closeWrite();
        }
        try {
            return done.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            s.reset();
            throw new AssertionError("no end of the " + protocol + " stream within " + timeout, e);
        } finally {
            if (closeWrite) {
                s.closeWrite();
            }
        }
    }

    private static byte[] bytes(ByteArrayOutputStream out) {
        synchronized (out) {
            return out.toByteArray();
        }
    }
}
