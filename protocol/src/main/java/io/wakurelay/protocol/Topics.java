package io.wakurelay.protocol;

import java.nio.charset.StandardCharsets;
import java.util.OptionalInt;

/**
 * Format rules for pubsub and content topics.
 *
 * <p>Pubsub topics are {@code /waku/2/rs/<cluster>/<shard>} (static sharding, both numbers 0..65535) or a
 * named topic {@code /waku/2/<name>} such as {@code /waku/2/default-waku/proto}. Their segments are made of
 * letters, digits and the URI path characters {@code -._~!$&'()*+,;=:@%}; anything else (space, quotes, angle
 * brackets, control characters, NUL) is refused, because topics travel in URLs and NUL separates topics in archive keys.
 *
 * <p>Content topics are two things, as in nwaku: where a message is relayed, published, pushed or stored, any
 * non-empty string within the length limit and without NUL ({@link #checkContentTopic}; nwaku relays
 * {@code Hello World!}); only where a shard must be derived from one (automatic sharding) must it be the
 * four-part {@code /{application}/{version}/{topic}/{encoding}}, optionally with a leading generation segment
 * ({@link #checkShardableContentTopic}).
 */
public final class Topics {
    public static final String DEFAULT_PUBSUB_TOPIC = "/waku/2/rs/0/0";
    private static final String WAKU2_PREFIX = "/waku/2/";
    private static final String STATIC_SHARDING = "rs/";

    private Topics() {
    }

    /** @throws ProtocolViolation with {@link Violation#INVALID_PUBSUB_TOPIC} saying what is wrong */
    public static void checkPubsubTopic(String topic, int maxBytes) {
        checkLength(topic, maxBytes, Violation.INVALID_PUBSUB_TOPIC, "pubsub topic");
        if (!topic.startsWith(WAKU2_PREFIX) || topic.length() == WAKU2_PREFIX.length()) {
            throw invalid(Violation.INVALID_PUBSUB_TOPIC, topic, "must start with /waku/2/ followed by a name or rs/<cluster>/<shard>");
        }
        String rest = topic.substring(WAKU2_PREFIX.length());
        if (rest.startsWith(STATIC_SHARDING)) {
            String[] parts = rest.substring(STATIC_SHARDING.length()).split("/", -1);
            if (parts.length != 2 || !isUint16(parts[0]) || !isUint16(parts[1])) {
                throw invalid(Violation.INVALID_PUBSUB_TOPIC, topic, "a static shard topic is /waku/2/rs/<cluster>/<shard> with numbers 0..65535");
            }
            return;
        }
        for (String segment : rest.split("/", -1)) {
            checkSegment(segment, topic, Violation.INVALID_PUBSUB_TOPIC);
        }
    }

    /** {@link #checkPubsubTopic} as a test, for topics a peer names (no exception on the hot path). */
    public static boolean isValidPubsubTopic(String topic, int maxBytes) {
        try {
            checkPubsubTopic(topic, maxBytes);
            return true;
        } catch (ProtocolViolation e) {
            return false;
        }
    }

    /** @return the shard of a static-sharding topic {@code /waku/2/rs/<cluster>/<shard>}, empty for any other topic */
    public static OptionalInt shardOf(String topic) {
        String prefix = WAKU2_PREFIX + STATIC_SHARDING;
        if (!topic.startsWith(prefix)) {
            return OptionalInt.empty();
        }
        String[] parts = topic.substring(prefix.length()).split("/", -1);
        return parts.length == 2 && isUint16(parts[0]) && isUint16(parts[1])
                ? OptionalInt.of(Integer.parseInt(parts[1])) : OptionalInt.empty();
    }

    /**
     * A content topic a message may carry: not empty, at most {@code maxBytes} of UTF-8, without NUL (the archive's
     * key separator). nwaku relays, pushes and stores any non-empty content topic and parses the four-part form only
     * where it derives a shard; so do we.
     *
     * @throws ProtocolViolation with {@link Violation#MISSING_CONTENT_TOPIC} or {@link Violation#INVALID_CONTENT_TOPIC}
     */
    public static void checkContentTopic(String topic, int maxBytes) {
        if (topic.isEmpty()) {
            throw new ProtocolViolation(Violation.MISSING_CONTENT_TOPIC, "a message needs a content topic");
        }
        checkLength(topic, maxBytes, Violation.INVALID_CONTENT_TOPIC, "content topic");
        if (topic.indexOf('\0') >= 0) {
            throw invalid(Violation.INVALID_CONTENT_TOPIC, topic, "contains NUL, which content topics do not allow");
        }
    }

    /**
     * A content topic a shard can be derived from (automatic sharding): {@code /{application}/{version}/{topic}/{encoding}},
     * optionally with a leading numeric generation, each segment of the URI path characters.
     *
     * @throws ProtocolViolation with {@link Violation#MISSING_CONTENT_TOPIC} or {@link Violation#INVALID_CONTENT_TOPIC}
     */
    public static void checkShardableContentTopic(String topic, int maxBytes) {
        if (topic.isEmpty()) {
            throw new ProtocolViolation(Violation.MISSING_CONTENT_TOPIC, "a message needs a content topic");
        }
        checkLength(topic, maxBytes, Violation.INVALID_CONTENT_TOPIC, "content topic");
        if (topic.charAt(0) != '/') {
            throw invalid(Violation.INVALID_CONTENT_TOPIC, topic, "must be /{application}/{version}/{topic}/{encoding}");
        }
        String[] segments = topic.substring(1).split("/", -1);
        if (segments.length != 4 && segments.length != 5) {
            throw invalid(Violation.INVALID_CONTENT_TOPIC, topic, "must be /{application}/{version}/{topic}/{encoding}");
        }
        if (segments.length == 5 && !isUint16(segments[0])) {
            throw invalid(Violation.INVALID_CONTENT_TOPIC, topic, "a five-segment content topic starts with a numeric generation");
        }
        for (String segment : segments) {
            checkSegment(segment, topic, Violation.INVALID_CONTENT_TOPIC);
        }
    }

    private static void checkLength(String topic, int maxBytes, Violation violation, String what) {
        if (topic.isEmpty()) {
            throw new ProtocolViolation(violation, what + " is empty");
        }
        // a UTF-8 byte count is at least the char count and at most three times it
        if (topic.length() > maxBytes || (topic.length() * 3 > maxBytes && utf8Length(topic) > maxBytes)) {
            throw new ProtocolViolation(violation, what + " is longer than " + maxBytes + " bytes");
        }
    }

    private static void checkSegment(String segment, String topic, Violation violation) {
        if (segment.isEmpty()) {
            throw invalid(violation, topic, "has an empty segment");
        }
        for (int i = 0; i < segment.length(); ) {
            int cp = segment.codePointAt(i);
            if (!isSegmentChar(cp)) {
                throw invalid(violation, topic, String.format("contains the character U+%04X, which topics do not allow", cp));
            }
            i += Character.charCount(cp);
        }
    }

    private static boolean isSegmentChar(int cp) {
        if (cp < 0x80) {
            return (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') || (cp >= '0' && cp <= '9')
                    || "-._~!$&'()*+,;=:@%".indexOf(cp) >= 0;
        }
        return Character.isLetterOrDigit(cp);
    }

    private static boolean isUint16(String s) {
        if (s.isEmpty() || s.length() > 5) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return Integer.parseInt(s) <= 0xFFFF;
    }

    private static int utf8Length(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }

    private static ProtocolViolation invalid(Violation violation, String topic, String why) {
        String shown = topic.length() <= 80 ? topic : topic.substring(0, 77) + "...";
        return new ProtocolViolation(violation, "'" + sanitize(shown) + "' " + why);
    }

    /** Error messages echo the topic; control characters are escaped so logs stay one line. */
    private static String sanitize(String s) {
        StringBuilder b = new StringBuilder(s.length());
        s.codePoints().forEach(cp -> {
            if (Character.isISOControl(cp)) {
                b.append(String.format("\\u%04x", cp));
            } else {
                b.appendCodePoint(cp);
            }
        });
        return b.toString();
    }
}
