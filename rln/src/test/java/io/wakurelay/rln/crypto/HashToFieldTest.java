package io.wakurelay.rln.crypto;

import com.fasterxml.jackson.databind.JsonNode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.rln.RlnVectors;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

class HashToFieldTest {

    @Test
    void matchesEveryHashToFieldVector() {
        JsonNode vectors = RlnVectors.poseidon().path("hash_to_field");
        assertThat(vectors).hasSize(11);
        for (JsonNode v : vectors) {
            byte[] input = RlnVectors.hex(v.path("input_hex").asText());
            assertThat(RlnVectors.hex(HashToField.keccak256(input))).isEqualTo(v.path("keccak256_hex").asText());
            FieldElement h = HashToField.hash(input);
            assertThat(h).as(v.path("what").asText()).hasToString(v.path("output").asText());
            assertThat(RlnVectors.hex(h.toLittleEndian())).isEqualTo(v.path("output_le_hex").asText());
        }
    }

    @Test
    void hashesHeapDirectAndCompositeBuffersAlike() {
        SplittableRandom random = new SplittableRandom(3);
        for (int size : new int[] {0, 1, 135, 136, 137, 4095, 4096, 4097, 10_000, 150_000}) {
            byte[] bytes = new byte[size];
            random.nextBytes(bytes);
            FieldElement expected = HashToField.hash(bytes);
            ByteBuf direct = Unpooled.directBuffer(size + 7).writeZero(7).writeBytes(bytes).skipBytes(7);
            ByteBuf heapSlice = Unpooled.wrappedBuffer(new byte[3], bytes, new byte[5]).slice(3, size);
            ByteBuf composite = Unpooled.wrappedBuffer(Unpooled.wrappedBuffer(bytes, 0, size / 2),
                    Unpooled.directBuffer(size).writeBytes(bytes, size / 2, size - size / 2));
            try {
                assertThat(HashToField.hash(direct)).as("direct, %d bytes", size).isEqualTo(expected);
                assertThat(HashToField.hash(heapSlice)).as("heap slice, %d bytes", size).isEqualTo(expected);
                assertThat(HashToField.hash(composite)).as("composite, %d bytes", size).isEqualTo(expected);
                assertThat(direct.readerIndex()).isEqualTo(7);
            } finally {
                direct.release();
                composite.release();
            }
        }
    }

    @Test
    void aHashCutShortByAReleasedBufferLeavesTheNextOneRight() {
        byte[] bytes = new byte[10_000];
        new SplittableRandom(4).nextBytes(bytes);
        FieldElement expected = HashToField.hash(bytes);
        ByteBuf first = Unpooled.directBuffer(8192).writeBytes(bytes, 0, 8192);
        ByteBuf released = Unpooled.directBuffer(100).writeZero(100);
        ByteBuf composite = Unpooled.wrappedBuffer(first, released); // not tracked itself; its parts are
        released.release();
        try {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> HashToField.hash(composite))
                    .isInstanceOf(io.netty.util.IllegalReferenceCountException.class);
        } finally {
            first.release();
        }
        assertThat(HashToField.hash(bytes)).isEqualTo(expected);
    }

    @Test
    void signalIsPayloadTopicAndTimestampOfEveryVectorsMessage() {
        // x (share_x, field 4) of every proof in the vectors is H(signal) of its message, except where the message was
        // changed after proving (R5) or share_x was re-encoded (R11-x)
        for (JsonNode c : RlnVectors.cases()) {
            String id = c.path("id").asText();
            if (id.startsWith("R5") || id.equals("R11-x") || id.equals("R1") || id.equals("R8")) {
                continue;
            }
            Envelope envelope = RlnVectors.envelope(c);
            try {
                ByteBuf proof = envelope.message().rateLimitProof();
                byte[] shareX = RlnVectors.protobufField(proof, 4);
                assertThat(RlnVectors.hex(HashToField.signal(envelope.message()).toLittleEndian()))
                        .as(id).isEqualTo(RlnVectors.hex(shareX));
            } finally {
                envelope.release();
            }
        }
    }

    @Test
    void signalOfTheREADMEsExampleMatchesItsVector() {
        // "hi" ‖ "/myapp/1/rln/proto" ‖ u64 LE 1765000500123456789: the second hash_to_field vector
        JsonNode v = RlnVectors.poseidon().path("hash_to_field").get(10);
        assertThat(v.path("what").asText()).contains("a signal");
        byte[] message = io.wakurelay.protocol.proto.WakuMessage.newBuilder()
                .setPayload(com.google.protobuf.ByteString.copyFromUtf8("hi"))
                .setContentTopic("/myapp/1/rln/proto").setTimestamp(1765000500123456789L).build().toByteArray();
        Envelope envelope = RlnVectors.envelope(message, 1765000500123456789L);
        try {
            assertThat(HashToField.signal(envelope.message())).hasToString(v.path("output").asText());
        } finally {
            envelope.release();
        }
    }
}
