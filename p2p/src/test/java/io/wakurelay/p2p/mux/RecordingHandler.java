package io.wakurelay.p2p.mux;

import io.netty.buffer.ByteBuf;
import io.wakurelay.p2p.connection.Stream;
import io.wakurelay.p2p.connection.StreamHandler;

import java.util.ArrayList;
import java.util.List;

/** Keeps a heap copy of everything a stream delivers, and the events in order. */
class RecordingHandler implements StreamHandler {
    final java.io.ByteArrayOutputStream received = new java.io.ByteArrayOutputStream();
    final List<String> events = new ArrayList<>();
    Stream stream;
    Throwable closeCause;
    boolean pauseOnOpen;

    @Override
    public void onOpen(Stream stream) {
        this.stream = stream;
        events.add("open");
        if (pauseOnOpen) {
            stream.pauseReading();
        }
    }

    @Override
    public void onData(Stream stream, ByteBuf data) {
        byte[] bytes = new byte[data.readableBytes()];
        data.readBytes(bytes);
        received.writeBytes(bytes);
        data.release();
    }

    @Override
    public void onRemoteClosed(Stream stream) {
        events.add("remote-closed");
    }

    @Override
    public void onWritabilityChanged(Stream stream) {
        events.add(stream.isWritable() ? "writable" : "unwritable");
    }

    @Override
    public void onClosed(Stream stream, Throwable cause) {
        events.add(cause == null ? "closed" : "closed: " + cause.getMessage());
        closeCause = cause;
    }

    static byte[] pattern(int size, int seed) {
        byte[] b = new byte[size];
        java.util.Random r = new java.util.Random(seed);
        r.nextBytes(b);
        return b;
    }

    byte[] receivedBytes() {
        return received.toByteArray();
    }
}
