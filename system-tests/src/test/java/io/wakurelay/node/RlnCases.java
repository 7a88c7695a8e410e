package io.wakurelay.node;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.InvalidProtocolBufferException;
import io.wakurelay.protocol.MessageHash;
import io.wakurelay.protocol.MessageHasher;
import io.wakurelay.protocol.PathCounters;
import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.rln.RlnVectors;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * The RLN test vectors (rln's {@code vectors.json}, its README says what each field means) as the node-level tests use
 * them: each case's WakuMessage bytes, timestamp and expected outcome, the meter a node counts that outcome in, the
 * membership roots, and the clock a group of cases can share.
 */
final class RlnCases {
    /** The vectors' pubsub topic, shard 0 of The Waku Network. */
    static final String TOPIC = RlnVectors.VECTORS_PUBSUB_TOPIC;
    /** The start of epoch E, the epoch most cases are in. */
    static final long EPOCH_E_NANOS = Long.parseLong(RlnVectors.vectors().path("epoch_E_start_ns").asText());
    /** How far a timestamp may be from the node's clock, whole seconds compared (the vectors' 20 s). */
    static final long MAX_GAP_NANOS = RlnVectors.vectors().path("max_timestamp_gap_sec").asLong() * 1_000_000_000L;
    /** The meters a node counts the outcomes in, by the vectors' {@code expected_metric_type}. */
    static final Map<String, String> METER = Map.of(
            "valid", "waku_rln_valid_messages_total{shard=\"" + TOPIC + "\"}",
            "invalid_timestamp", "waku_rln_invalid_messages_total{type=\"invalid_timestamp\"}",
            "timestamp_mismatch", "waku_rln_invalid_messages_total{type=\"timestamp_mismatch\"}",
            "invalid_root", "waku_rln_invalid_messages_total{type=\"invalid_root\"}",
            "invalid_proof", "waku_rln_invalid_messages_total{type=\"invalid_proof\"}",
            "proof_verification_error", "waku_rln_errors_total{type=\"proof_verification\"}",
            "spam", "waku_rln_spam_messages_total",
            // no RLN meter: the relay's rejection by RLN's reason
            "decode", "waku_relay_validation_rejected_total{reason=\"decode\"}",
            // a byte-identical copy on a relay: its seen cache drops it before any validation
            "duplicate", "libp2p_gossipsub_duplicate_total");
    /** Every RLN message whose field 21 decoded counts here first. */
    static final String MESSAGES = "waku_rln_messages_total";
    /** The metric families of {@link #METER} and {@link #MESSAGES}, for a filtered scrape. */
    static final List<String> FAMILIES = List.of("waku_rln_messages_total", "waku_rln_valid_messages_total",
            "waku_rln_invalid_messages_total", "waku_rln_errors_total", "waku_rln_spam_messages_total",
            "waku_relay_validation_rejected_total", "libp2p_gossipsub_duplicate_total",
            "waku_rln_strict_rejections_total", "waku_rln_proof_verification_total");

    private static final MessageHasher HASHER = new MessageHasher(new PathCounters());

    private RlnCases() {
    }

    /** One case: its message, the timestamp in it, what the vectors expect of it. */
    record Case(String id, byte[] message, long timestampNanos, String expected, String type) {
        String base64() {
            return Base64.getEncoder().encodeToString(message);
        }

        MessageHash hash() {
            return HASHER.hash(TOPIC, wakuMessage());
        }

        WakuMessage wakuMessage() {
            try {
                return WakuMessage.parseFrom(message);
            } catch (InvalidProtocolBufferException e) {
                throw new AssertionError(id + " is not a WakuMessage", e);
            }
        }

        boolean valid() {
            return expected.equals("accept");
        }

        /** The meter this case moves on a node. */
        String meter() {
            return METER.get(type);
        }

        /** The latest the node may validate it: its timestamp and the gap allowed. */
        long deadlineNanos() {
            return timestampNanos + MAX_GAP_NANOS;
        }

        @Override
        public String toString() {
            return id;
        }
    }

    static Case get(String id) {
        JsonNode c = RlnVectors.casesById().get(id);
        if (c == null) {
            throw new IllegalArgumentException("no case " + id);
        }
        byte[] message = RlnVectors.hex(c.path("message").asText());
        Case parsed = new Case(id, message, 0, c.path("expected").asText(), c.path("expected_metric_type").asText());
        return new Case(id, message, parsed.wakuMessage().getTimestamp(), parsed.expected(), parsed.type());
    }

    static List<Case> all(String... ids) {
        List<Case> cases = new ArrayList<>();
        for (String id : ids) {
            cases.add(get(id));
        }
        return cases;
    }

    /**
     * The clock a group of cases, validated in order and within seconds, can start at: the earliest at which the
     * newest timestamp among them is within the gap (each is then valid until its own {@link Case#deadlineNanos}), and
     * not before {@code notBeforeNanos}; plus a little, so that the first of them is not validated at the edge.
     */
    static long groupClock(List<Case> cases, long notBeforeNanos) {
        long newest = cases.stream().mapToLong(Case::timestampNanos).max().orElseThrow();
        return Math.max(newest - MAX_GAP_NANOS, notBeforeNanos) + 300_000_000L;
    }

    /** The root after registration {@code n} (1-based), as the contract's {@code root()} returns it. */
    static BigInteger rootAfter(int registrations) {
        byte[] le = RlnVectors.hex(RlnVectors.vectors().path("members").get(registrations - 1)
                .path("root_after_le_hex").asText());
        byte[] be = new byte[le.length];
        for (int i = 0; i < le.length; i++) {
            be[i] = le[le.length - 1 - i];
        }
        return new BigInteger(1, be);
    }
}
