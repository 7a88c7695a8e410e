package io.wakurelay.rln;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.EnvelopeDecoder;
import io.wakurelay.protocol.MessageValidator;
import io.wakurelay.protocol.PathCounters;
import io.wakurelay.protocol.ProtocolLimits;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The RLN test data of {@code src/test/resources/rln/} (its README says what each field means): {@code poseidon.json}
 * and {@code vectors.json}, read once per JVM. Shared with system-tests through this module's test jar.
 */
public final class RlnVectors {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HexFormat HEX = HexFormat.of();
    /** The pubsub topic of every case. */
    public static final String VECTORS_PUBSUB_TOPIC = "/waku/2/rs/1/0";

    private RlnVectors() {
    }

    private static final class Loaded {
        static final JsonNode POSEIDON = read("/rln/poseidon.json");
        static final JsonNode VECTORS = read("/rln/vectors.json");
    }

    /** poseidon.json: {@code poseidon}, {@code zero_subtree_hashes}, {@code hash_to_field}, {@code external_nullifier}. */
    public static JsonNode poseidon() {
        return Loaded.POSEIDON;
    }

    /** vectors.json: the members, the cases and the constants of the validation cases. */
    public static JsonNode vectors() {
        return Loaded.VECTORS;
    }

    /** Every validation case, in file order. */
    public static List<JsonNode> cases() {
        List<JsonNode> cases = new ArrayList<>();
        vectors().path("cases").forEach(cases::add);
        return cases;
    }

    /** The cases by id. */
    public static Map<String, JsonNode> casesById() {
        return cases().stream().collect(Collectors.toMap(c -> c.path("id").asText(), Function.identity()));
    }

    /**
     * A case's message decoded as the receive path decodes it, from a direct buffer, at the case's {@code now_ns}. The
     * caller releases the envelope (which holds the only reference to the buffer).
     */
    public static Envelope envelope(JsonNode testCase) {
        return envelope(hex(testCase.path("message").asText()), Long.parseLong(testCase.path("now_ns").asText()));
    }

    /** WakuMessage bytes decoded from a direct buffer, with the clock at {@code nowNanos}; the caller releases it. */
    public static Envelope envelope(byte[] message, long nowNanos) {
        ByteBuf buf = Unpooled.directBuffer(message.length).writeBytes(message);
        try {
            return new EnvelopeDecoder(new MessageValidator(ProtocolLimits.DEFAULTS, () -> nowNanos), new PathCounters())
                    .decode(VECTORS_PUBSUB_TOPIC, buf, buf);
        } finally {
            buf.release();
        }
    }

    /** The last occurrence of a bytes field of a protobuf message (empty when absent), read with the generated parser's rules. */
    public static byte[] protobufField(ByteBuf message, int field) {
        try {
            byte[] bytes = new byte[message.readableBytes()];
            message.getBytes(message.readerIndex(), bytes);
            com.google.protobuf.UnknownFieldSet set = com.google.protobuf.UnknownFieldSet.parseFrom(bytes);
            com.google.protobuf.UnknownFieldSet.Field f = set.getField(field);
            java.util.List<com.google.protobuf.ByteString> values = f.getLengthDelimitedList();
            return values.isEmpty() ? new byte[0] : values.get(values.size() - 1).toByteArray();
        } catch (com.google.protobuf.InvalidProtocolBufferException e) {
            throw new IllegalArgumentException(e);
        }
    }

    public static byte[] hex(String text) {
        return HEX.parseHex(text);
    }

    public static String hex(byte[] bytes) {
        return HEX.formatHex(bytes);
    }

    private static JsonNode read(String resource) {
        try (InputStream in = RlnVectors.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("no test resource " + resource);
            }
            return JSON.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
