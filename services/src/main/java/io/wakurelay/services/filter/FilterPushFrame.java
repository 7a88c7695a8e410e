package io.wakurelay.services.filter;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.wakurelay.p2p.wire.Uvarint;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.services.proto.MessagePush;

/**
 * The length-prefixed {@code MessagePush{waku_message = 1, pubsub_topic = 2}} of one accepted message, written once
 * and shared by every subscriber it goes to. The message's bytes are copied as received (they are already a
 * WakuMessage encoding), so the frame does not hold the envelope's buffer: a slow subscriber keeps only this frame.
 */
final class FilterPushFrame {
    private static final int MESSAGE_TAG = MessagePush.WAKU_MESSAGE_FIELD_NUMBER << 3 | 2;
    private static final int TOPIC_TAG = MessagePush.PUBSUB_TOPIC_FIELD_NUMBER << 3 | 2;

    private FilterPushFrame() {
    }

    static ByteBuf encode(ByteBufAllocator alloc, Envelope envelope) {
        int messageSize = envelope.messageSize();
        String topic = envelope.pubsubTopic();
        int topicSize = ByteBufUtil.utf8Bytes(topic);
        int body = 1 + Uvarint.size(messageSize) + messageSize + 1 + Uvarint.size(topicSize) + topicSize;
        ByteBuf frame = alloc.directBuffer(Uvarint.size(body) + body);
        Uvarint.write(frame, body);
        frame.writeByte(MESSAGE_TAG);
        Uvarint.write(frame, messageSize);
        frame.writeBytes(envelope.messageBytes());
        frame.writeByte(TOPIC_TAG);
        Uvarint.write(frame, topicSize);
        ByteBufUtil.writeUtf8(frame, topic);
        return frame;
    }
}
