package io.wakurelay.node.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.base64.Base64;
import io.netty.handler.codec.base64.Base64Dialect;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.WakuMessageView;
import io.wakurelay.protocol.proto.WakuMessage;

import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * The REST representation of a WakuMessage: {@code {"payload":"<base64>","contentTopic":"...","version":0,
 * "timestamp":<ns>,"meta":"<base64>","ephemeral":false}}, read as nwaku reads it: an unknown field, or a field that
 * is {@code null}, is a 400 (nwaku's reader logs the unknown name, then fails on its value; it reads no field as
 * optional-when-null), {@code proof} is nwaku's name for the rate-limit proof (written so; {@code rateLimitProof} is
 * read too), a timestamp of 0 means now, and an empty payload is refused; a known field of the wrong type is a 400 that
 * says which. The words start as nwaku's do ({@value #UNDECODABLE}).
 */
public final class MessageJson {
    /** nwaku's words before why a body does not decode (rest_serdes.nim and serdes.nim), which scripts compare. */
    static final String UNDECODABLE = "Invalid content body, could not decode: Unable to deserialize data: ";
    private static final Set<String> FIELDS = Set.of("payload", "contentTopic", "version", "timestamp", "meta", "ephemeral",
            "rateLimitProof", "proof");
    private static final long UINT32_MAX = 0xFFFF_FFFFL;

    private MessageJson() {
    }

    /**
     * Reads a publish body. A message without a timestamp, or with 0, gets {@code nowNanos}.
     *
     * @throws HttpError 400 saying which field is wrong
     */
    public static WakuMessage read(JsonNode body, long nowNanos) {
        if (body == null || !body.isObject()) {
            throw HttpError.badRequest("the body must be a JSON object with payload and contentTopic");
        }
        for (Iterator<Map.Entry<String, JsonNode>> fields = body.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            if (!FIELDS.contains(field.getKey())) {
                throw HttpError.badRequest(UNDECODABLE + "unknown field '" + shown(field.getKey()) + "'; a message has "
                        + "payload, contentTopic, version, timestamp, meta, ephemeral and proof");
            }
            if (field.getValue().isNull()) {
                throw HttpError.badRequest(UNDECODABLE + field.getKey() + " is null; leave the field out instead");
            }
        }
        WakuMessage.Builder b = WakuMessage.newBuilder();
        JsonNode payload = body.get("payload");
        if (payload == null || payload.isNull() || (payload.isTextual() && payload.asText().isBlank())) {
            throw HttpError.badRequest("payload is missing or empty (base64 of at least one byte, as nwaku requires)");
        }
        b.setPayload(base64(payload, "payload"));
        JsonNode contentTopic = body.get("contentTopic");
        if (contentTopic == null || contentTopic.isNull() || (contentTopic.isTextual() && contentTopic.asText().isBlank())) {
            throw HttpError.badRequest("contentTopic is missing or empty");
        }
        if (!contentTopic.isTextual()) {
            throw HttpError.badRequest("contentTopic must be a string");
        }
        b.setContentTopic(contentTopic.asText());
        JsonNode version = body.get("version");
        if (version != null && !version.isNull()) {
            if (!version.isIntegralNumber() || version.asLong() < 0 || version.asLong() > UINT32_MAX) {
                throw HttpError.badRequest("version must be an integer 0..4294967295");
            }
            b.setVersion((int) version.asLong());
        }
        JsonNode timestamp = body.get("timestamp");
        if (timestamp != null && !timestamp.isNull()) {
            if (!timestamp.isIntegralNumber() || !timestamp.canConvertToLong()) {
                throw HttpError.badRequest("timestamp must be an integer (Unix nanoseconds)");
            }
            // 0 is "now", as nwaku reads it: a zero timestamp would fail every peer's clock window
            b.setTimestamp(timestamp.asLong() == 0 ? nowNanos : timestamp.asLong());
        } else {
            b.setTimestamp(nowNanos);
        }
        JsonNode meta = body.get("meta");
        if (meta != null && !meta.isNull()) {
            b.setMeta(base64(meta, "meta"));
        }
        JsonNode proof = body.get("rateLimitProof");
        JsonNode nwakuProof = body.get("proof");
        if (proof != null && !proof.isNull() && nwakuProof != null && !nwakuProof.isNull()) {
            throw HttpError.badRequest("give the proof once: proof (nwaku's name) or rateLimitProof, not both");
        }
        if (proof != null && !proof.isNull()) {
            b.setRateLimitProof(base64(proof, "rateLimitProof"));
        } else if (nwakuProof != null && !nwakuProof.isNull()) {
            b.setRateLimitProof(base64(nwakuProof, "proof"));
        }
        JsonNode ephemeral = body.get("ephemeral");
        if (ephemeral != null && !ephemeral.isNull()) {
            if (!ephemeral.isBoolean()) {
                throw HttpError.badRequest("ephemeral must be true or false");
            }
            b.setEphemeral(ephemeral.asBoolean());
        }
        return b.build();
    }

    private static String shown(String name) {
        return (name.length() > 64 ? name.substring(0, 64) + "..." : name).replaceAll("\\p{Cntrl}", "?");
    }

    private static ByteString base64(JsonNode node, String field) {
        if (!node.isTextual()) {
            throw HttpError.badRequest(field + " must be a base64 string");
        }
        try {
            // the decoded array is handed to protobuf as is: it is new, so wrapping it is safe and saves a copy
            return UnsafeByteOperations.unsafeWrap(java.util.Base64.getDecoder().decode(node.asText()));
        } catch (IllegalArgumentException e) {
            throw HttpError.badRequest(field + " is not valid base64: " + e.getMessage());
        }
    }

    /** A received message, rendered while its envelope is still referenced (the payload is read in place). */
    public static ObjectNode write(ObjectMapper mapper, WakuMessageView m) {
        ObjectNode o = mapper.createObjectNode();
        o.put("payload", base64(m.payload()));
        o.put("contentTopic", m.contentTopic());
        o.put("version", Integer.toUnsignedLong(m.version()));
        o.put("timestamp", m.timestamp());
        if (m.hasMeta()) {
            o.put("meta", base64(m.meta()));
        }
        if (m.hasRateLimitProof()) {
            o.put("proof", base64(m.rateLimitProof()));
        }
        o.put("ephemeral", m.ephemeral());
        return o;
    }

    /** A stored message read back from the archive. */
    public static ObjectNode write(ObjectMapper mapper, WakuMessage m) {
        ObjectNode o = mapper.createObjectNode();
        o.put("payload", java.util.Base64.getEncoder().encodeToString(m.getPayload().toByteArray()));
        o.put("contentTopic", m.getContentTopic());
        o.put("version", Integer.toUnsignedLong(m.getVersion()));
        o.put("timestamp", m.getTimestamp());
        if (m.hasMeta()) {
            o.put("meta", java.util.Base64.getEncoder().encodeToString(m.getMeta().toByteArray()));
        }
        if (m.hasRateLimitProof()) {
            o.put("proof", java.util.Base64.getEncoder().encodeToString(m.getRateLimitProof().toByteArray()));
        }
        o.put("ephemeral", m.getEphemeral());
        return o;
    }

    /** {@code {"messageHash":..,"pubsubTopic":..,"message":{..}}} as the SSE stream sends it. */
    public static ObjectNode writeEnvelope(ObjectMapper mapper, Envelope e) {
        ObjectNode o = mapper.createObjectNode();
        o.put("messageHash", e.hash().toHex());
        o.put("pubsubTopic", e.pubsubTopic());
        o.set("message", write(mapper, e.message()));
        return o;
    }

    /** Base64 straight from the (possibly off-heap) buffer, without first copying the raw bytes to the heap. */
    private static String base64(ByteBuf bytes) {
        if (!bytes.isReadable()) {
            return "";
        }
        ByteBuf encoded = Base64.encode(bytes, false, Base64Dialect.STANDARD);
        try {
            return encoded.toString(StandardCharsets.US_ASCII);
        } finally {
            encoded.release();
        }
    }

    static Map<String, String> error(String message) {
        return Map.of("error", message);
    }
}
