package io.wakurelay.node.rest;

import io.wakurelay.archive.StoreQuery;
import io.wakurelay.protocol.MessageHash;
import io.wakurelay.protocol.ProtocolViolation;
import io.wakurelay.protocol.Topics;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The parameters of {@code GET /store/v3/messages} read as nwaku reads them (its {@code createStoreQuery} in
 * rest_api/endpoint/store/handlers.nim), because scripts written against nwaku send what it takes: unknown parameters
 * are ignored, an empty value is an absent one, booleans are Nim's {@code parseBool}, a time that is not positive is
 * no bound, a negative page size is the largest page (nwaku converts it to an unsigned number, past the maximum).
 * What nwaku takes but can match nothing (an invalid pubsub topic, {@code startTime} after {@code endTime}) is a
 * query with no answer rather than a 400; hashes given with topics are narrowed by them, as nwaku's archive drivers
 * join every filter. Errors carry nwaku's words, which scripts compare.
 */
final class StoreQueryParser {
    /** The archive's own generous limit on a topic's length (StoreQuery's); a longer one was never stored. */
    private static final int TOPIC_BYTES_LIMIT = 4096;

    /** @param query null when the parameters can match no stored message: the answer is an empty page */
    record Parsed(StoreQuery query) {
        boolean matchesNothing() {
            return query == null;
        }
    }

    private StoreQueryParser() {
    }

    /** @throws IllegalArgumentException with nwaku's text, for a 400 (InvalidQueryException from the query's own limits) */
    static Parsed parse(QueryParameters params) {
        boolean includeData = parseBool(params.first("includeData", ""), "include data parsing error: ", false);
        String pubsubTopic = params.first("pubsubTopic", "");
        List<String> contentTopics = params.list("contentTopics");
        Long startTime = time(params.first("startTime", ""));
        Long endTime = time(params.first("endTime", ""));
        List<MessageHash> hashes = hashes(params.list("hashes"));
        String cursorText = params.first("cursor", "");
        MessageHash cursor = cursorText.isEmpty() ? null : hash(cursorText);
        String ascending = params.first("ascending", "");
        int pageSize = pageSize(params.first("pageSize", ""));

        boolean nothing = startTime != null && endTime != null && startTime > endTime;
        StoreQuery.Builder b = StoreQuery.builder().includeData(includeData).startTime(startTime).endTime(endTime)
                .cursor(cursor).pageSize(pageSize)
                // nwaku: absent or empty is forward; any other value than "true" is backward
                .ascending(ascending.isEmpty() || ascending.equals("true"));
        b.hashes(hashes);
        if (!pubsubTopic.isEmpty()) {
            nothing |= !Topics.isValidPubsubTopic(pubsubTopic, TOPIC_BYTES_LIMIT);
            b.pubsubTopic(pubsubTopic);
        }
        List<String> storable = contentTopics.stream().filter(StoreQueryParser::storable).toList();
        nothing |= !contentTopics.isEmpty() && storable.isEmpty();
        b.contentTopics(storable);
        return new Parsed(nothing ? null : b.build());
    }

    /** Whether a message could have been stored with this content topic (one that cannot matches nothing). */
    private static boolean storable(String contentTopic) {
        try {
            Topics.checkContentTopic(contentTopic, TOPIC_BYTES_LIMIT);
            return true;
        } catch (ProtocolViolation e) {
            return false;
        }
    }

    /**
     * Nim's {@code strutils.parseBool}: case and underscores ignored, y/yes/true/1/on and n/no/false/0/off.
     *
     * @param prefix nwaku's words before Nim's error
     */
    static boolean parseBool(String text, String prefix, boolean fallback) {
        if (text.isEmpty()) {
            return fallback;
        }
        return switch (text.replace("_", "").toLowerCase(Locale.ROOT)) {
            case "y", "yes", "true", "1", "on" -> true;
            case "n", "no", "false", "0", "off" -> false;
            default -> throw new IllegalArgumentException(prefix + "cannot interpret as a bool: " + text);
        };
    }

    /** nwaku's {@code parseTime}: only a positive time bounds the query. */
    private static Long time(String text) {
        if (text.isEmpty()) {
            return null;
        }
        long time = nimInt(text, "time parsing error: ");
        return time > 0 ? time : null;
    }

    private static int pageSize(String text) {
        if (text.isEmpty()) {
            return 0; // the default page
        }
        long n = nimInt(text, "page size parsing error: ");
        // nwaku turns the number into an unsigned one, so a negative page size is huge and clamped to the maximum
        return n < 0 || n > StoreQuery.MAX_PAGE_SIZE ? StoreQuery.MAX_PAGE_SIZE : (int) n;
    }

    /** Nim's {@code parseInt}, with its error text after nwaku's prefix. */
    private static long nimInt(String text, String prefix) {
        try {
            return Long.parseLong(text.startsWith("+") ? text.substring(1) : text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(prefix + "invalid integer: " + text);
        }
    }

    /**
     * nwaku's {@code parseHashes}: comma-separated (the list is split already), empty parts skipped (nwaku's
     * {@code parseHash} of an empty string is no hash); spaces around a hash are forgiven.
     */
    private static List<MessageHash> hashes(List<String> texts) {
        List<MessageHash> hashes = new ArrayList<>(texts.size());
        for (String text : texts) {
            String trimmed = text.trim();
            if (!trimmed.isEmpty()) {
                hashes.add(hash(trimmed));
            }
        }
        return hashes;
    }

    /** nwaku's {@code parseHash}: hex with or without 0x (stew's hexToSeqByte), then exactly 32 bytes. */
    static MessageHash hash(String text) {
        if ((text.length() & 1) == 1) {
            throw new IllegalArgumentException("Exception converting hex string to bytes: hex string must have even length");
        }
        int skip = text.length() > 1 && text.charAt(0) == '0' && (text.charAt(1) == 'x' || text.charAt(1) == 'X') ? 2 : 0;
        byte[] bytes = new byte[(text.length() - skip) / 2];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) (hexDigit(text.charAt(skip + 2 * i)) << 4 | hexDigit(text.charAt(skip + 2 * i + 1)));
        }
        if (bytes.length != MessageHash.LENGTH) {
            throw new IllegalArgumentException("waku message hash parsing error: invalid hash length: " + bytes.length);
        }
        return MessageHash.of(bytes);
    }

    private static int hexDigit(char c) {
        int digit = Character.digit(c, 16);
        if (digit < 0 || c > 'f') { // Character.digit also takes non-ASCII digits
            throw new IllegalArgumentException("Exception converting hex string to bytes: " + c + " is not a hexadecimal character");
        }
        return digit;
    }
}
