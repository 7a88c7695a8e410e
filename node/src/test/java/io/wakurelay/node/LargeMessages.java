package io.wakurelay.node;

import io.wakurelay.testkit.Eventually;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;

/** Publishes messages of nearly the largest size (150 KiB) over REST, to fill a store for query tests. */
final class LargeMessages {
    static final String TOPIC = "/waku/2/rs/0/0";
    static final String CONTENT = "/app/1/large/proto";
    static final int PAYLOAD_BYTES = 140_000;

    private LargeMessages() {
    }

    /** Publishes {@code count} distinct messages and waits until the store holds them; returns nothing but fails loudly. */
    static void publish(Http rest, int count) {
        Random random = new Random(count);
        byte[] payload = new byte[PAYLOAD_BYTES];
        long last = 0;
        for (int i = 0; i < count; i++) {
            random.nextBytes(payload);
            // the time of the publish, not of the first one: on a loaded machine the last may come more than the
            // archive's 20 s window after the first; still rising, so that the store's order is the publishing order
            last = Math.max(WakuNode.nowNanos(), last + 1);
            String body = "{\"payload\":\"" + Base64.getEncoder().encodeToString(payload) + "\",\"contentTopic\":\"" + CONTENT
                    + "\",\"timestamp\":" + last + "}";
            Http.Reply reply = rest.post("/relay/v1/messages/" + Http.topic(TOPIC), body);
            if (reply.status() != 200) {
                throw new AssertionError("publish " + i + " answered " + reply.status() + ": " + reply.body());
            }
        }
        Eventually.until(count + " large messages stored", java.time.Duration.ofSeconds(60), () -> hashes(rest).size() == count);
    }

    /** Every stored hash of the content topic, oldest first, following the cursors (without data). */
    static List<String> hashes(Http rest) {
        List<String> out = new ArrayList<>();
        String cursor = null;
        do {
            Http.Reply reply = rest.get(query("pageSize=100") + (cursor == null ? "" : "&cursor=" + cursor));
            reply.json().get("messages").forEach(m -> out.add(m.get("messageHash").asText()));
            cursor = reply.json().hasNonNull("paginationCursor") ? reply.json().get("paginationCursor").asText() : null;
        } while (cursor != null);
        return out;
    }

    static String query(String more) {
        return "/store/v3/messages?pubsubTopic=" + Http.topic(TOPIC) + "&contentTopics=" + Http.topic(CONTENT) + "&" + more;
    }
}
