package io.wakurelay.relay;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.wakurelay.p2p.wire.Uvarint;
import io.wakurelay.relay.proto.RPC;

import java.nio.charset.StandardCharsets;

/**
 * Writes length-prefixed pubsub RPCs. A message's RPC is a composite: a few bytes of header around the Message
 * exactly as received (or, for this node's own message, around the encoded WakuMessage), so that forwarding never
 * copies or re-encodes data. The same RPC buffer goes to every peer as a retained duplicate.
 */
final class RpcWriter {
    private static final int RPC_PUBLISH_TAG = (2 << 3) | 2;
    private static final int MSG_DATA_TAG = (2 << 3) | 2;
    private static final int MSG_TOPIC_TAG = (4 << 3) | 2;

    private RpcWriter() {
    }

    /**
     * The RPC that carries {@code message} (a Message as received; a new reference is taken).
     *
     * @return a new length-prefixed RPC owned by the caller
     */
    static ByteBuf forward(ByteBufAllocator alloc, ByteBuf message) {
        int messageLength = message.readableBytes();
        int rpcLength = 1 + Uvarint.size(messageLength) + messageLength;
        ByteBuf header = alloc.directBuffer(2 * Uvarint.MAX_BYTES + 1);
        Uvarint.write(header, rpcLength);
        header.writeByte(RPC_PUBLISH_TAG);
        Uvarint.write(header, messageLength);
        CompositeByteBuf rpc = alloc.compositeDirectBuffer(2);
        rpc.addComponent(true, header);
        rpc.addComponent(true, message.retainedSlice());
        return rpc;
    }

    /**
     * The Message {@code {data, topic}} for this node's own message (a new reference to {@code data} is taken): what
     * {@link #forward} then wraps, and what the message cache keeps.
     */
    static ByteBuf message(ByteBufAllocator alloc, ByteBuf data, String topic) {
        byte[] topicBytes = topic.getBytes(StandardCharsets.UTF_8);
        ByteBuf head = alloc.directBuffer(1 + Uvarint.MAX_BYTES);
        head.writeByte(MSG_DATA_TAG);
        Uvarint.write(head, data.readableBytes());
        ByteBuf tail = alloc.directBuffer(1 + Uvarint.MAX_BYTES + topicBytes.length);
        tail.writeByte(MSG_TOPIC_TAG);
        Uvarint.write(tail, topicBytes.length);
        tail.writeBytes(topicBytes);
        CompositeByteBuf message = alloc.compositeDirectBuffer(3);
        message.addComponent(true, head);
        message.addComponent(true, data.retainedSlice());
        message.addComponent(true, tail);
        return message;
    }

    /** A length-prefixed RPC of subscriptions and control (small, built by the generated code). */
    static ByteBuf control(ByteBufAllocator alloc, RPC rpc) {
        int size = rpc.getSerializedSize();
        ByteBuf out = alloc.directBuffer(Uvarint.size(size) + size);
        Uvarint.write(out, size);
        out.writeBytes(rpc.toByteArray());
        return out;
    }
}
