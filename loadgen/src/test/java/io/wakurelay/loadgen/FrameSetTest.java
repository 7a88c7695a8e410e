package io.wakurelay.loadgen;

import io.netty.buffer.ByteBuf;
import io.wakurelay.node.WakuNode;
import io.wakurelay.p2p.wire.Uvarint;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.EnvelopeDecoder;
import io.wakurelay.protocol.MessageValidator;
import io.wakurelay.protocol.PathCounters;
import io.wakurelay.protocol.PayloadMix;
import io.wakurelay.protocol.ProtocolLimits;
import io.wakurelay.relay.proto.Message;
import io.wakurelay.relay.proto.RPC;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FrameSetTest {
    private final Workload workload = new Workload(42, PayloadMix.defaultMix(), 1000, 100, Workload.DEFAULT_PUBSUB_TOPIC,
            Workload.DEFAULT_CONTENT_TOPIC);

    @Test
    void theEncoderRunsAheadOfUseByABoundedNumberOfFramesOnly() throws Exception {
        try (FrameSet frames = new FrameSet(workload)) {
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (frames.encoded() < FrameSet.AHEAD && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            Thread.sleep(200);
            // AHEAD frames wait in the queue, one more may be encoded and waiting to be put
            assertThat(frames.encoded()).isBetween(FrameSet.AHEAD, FrameSet.AHEAD + 1);
            frames.frame(0).release();
            Thread.sleep(200);
            assertThat(frames.encoded()).isBetween(FrameSet.AHEAD + 1, FrameSet.AHEAD + 2);
        }
    }

    @Test
    void eachFrameIsOneLengthPrefixedPublishRpcWhoseMessageHasTheHashTheSetReports() throws Exception {
        EnvelopeDecoder decoder = new EnvelopeDecoder(new MessageValidator(ProtocolLimits.DEFAULTS, WakuNode::nowNanos), new PathCounters());
        int[] sizes = workload.sizes();
        Set<Object> hashes = new HashSet<>();
        try (FrameSet frames = new FrameSet(workload)) {
            for (int i = 0; i < workload.total(); i++) {
                ByteBuf frame = frames.frame(i);
                try {
                    long length = Uvarint.read(frame); // the varint length prefix
                    assertThat(length).as("the prefix is the RPC's length").isEqualTo(frame.readableBytes());
                    RPC rpc = RPC.parseFrom(frame.nioBuffer());
                    assertThat(rpc.getPublishCount()).isEqualTo(1);
                    Message m = rpc.getPublish(0);
                    assertThat(m.getTopic()).isEqualTo(workload.pubsubTopic());
                    assertThat(m.hasFrom() || m.hasSeqno() || m.hasSignature() || m.hasKey()).as("StrictNoSign").isFalse();
                    ByteBuf data = io.netty.buffer.Unpooled.wrappedBuffer(m.getData().toByteArray());
                    Envelope envelope = decoder.decode(m.getTopic(), data, data);
                    data.release();
                    try {
                        assertThat(envelope.hash()).isEqualTo(frames.hash(i));
                        assertThat(frames.indexOf(envelope.hash())).isEqualTo(i);
                        assertThat(envelope.message().payloadSize()).isEqualTo(sizes[i]);
                        ByteBuf payload = envelope.message().payload();
                        assertThat(payload.getInt(payload.readerIndex())).isEqualTo(i);
                        hashes.add(envelope.hash());
                    } finally {
                        envelope.release();
                    }
                } finally {
                    frame.release();
                }
            }
        }
        assertThat(hashes).hasSize(workload.total());
    }

    @Test
    void framesAreTakenInOrderAndAHashIsKnownOnlyOnceItsFrameIsTaken() {
        try (FrameSet frames = new FrameSet(workload)) {
            assertThatThrownBy(() -> frames.frame(1)).hasMessageContaining("in order");
            assertThatThrownBy(() -> frames.hash(0)).hasMessageContaining("not been taken");
            frames.frame(0).release();
            assertThat(frames.hash(0)).isNotNull();
            assertThat(frames.taken()).isEqualTo(1);
        }
    }

    @Test
    void aFrameIsByteForByteWhatTheGeneratedProtobufCodeWrites() throws Exception {
        for (int size : new int[]{0, 1, 127, 128, 16_383, 16_384, 150_000}) {
            byte[] data = new byte[size];
            java.util.Arrays.fill(data, (byte) size);
            ByteBuf message = io.netty.buffer.Unpooled.wrappedBuffer(data);
            ByteBuf frame = FrameSet.relayStreamBytes(io.netty.buffer.UnpooledByteBufAllocator.DEFAULT, "/waku/2/rs/0/ü", message);
            try {
                byte[] rpc = RPC.newBuilder().addPublish(Message.newBuilder()
                        .setData(com.google.protobuf.ByteString.copyFrom(data)).setTopic("/waku/2/rs/0/ü")).build().toByteArray();
                java.io.ByteArrayOutputStream expected = new java.io.ByteArrayOutputStream();
                com.google.protobuf.CodedOutputStream prefix = com.google.protobuf.CodedOutputStream.newInstance(expected);
                prefix.writeUInt32NoTag(rpc.length);
                prefix.flush();
                expected.write(rpc);
                assertThat(io.netty.buffer.ByteBufUtil.getBytes(frame)).as("%d bytes of data", size).isEqualTo(expected.toByteArray());
                assertThat(message.readableBytes()).as("the message is read, not consumed").isEqualTo(size);
            } finally {
                frame.release();
                message.release();
            }
        }
    }
}
