package io.wakurelay.loadgen;

import io.netty.buffer.ByteBuf;

/** Where a scenario sends its frames: a node's receive path ({@link FrameFeeder}) or a node's REST API ({@link RestPublisher}). */
interface FrameSink extends AutoCloseable {
    /** Takes ownership of {@code frame} (the bytes a peer writes on its relay stream to publish one message). */
    void send(ByteBuf frame);

    @Override
    void close();
}
