package io.wakurelay.node;

import io.wakurelay.services.store.StoreLimits;
import io.wakurelay.testkit.Eventually;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The limits every Store query shares: a byte budget per page (a page of large messages ends early with a cursor,
 * and paging still returns every message once) and a number of queries answered at once (one more is a 429 with
 * Retry-After, and a slot is held until its answer is written, so a client that does not read holds one).
 */
class StoreQueryLimitsTest {
    private static final int MESSAGES = 100;
    private static final long BUDGET = 6L << 20;

    @TempDir
    static Path dir;
    static WakuNode node;
    static Http rest;

    @BeforeAll
    static void start() {
        node = WakuNode.start(TestNodes.local(dir).store(new StoreLimits(1, 6L << 20)).build());
        rest = new Http(node.restAddress());
        LargeMessages.publish(rest, MESSAGES);
    }

    @AfterAll
    static void stop() {
        node.close();
    }

    @Test
    void aPageOfLargeMessagesEndsAtTheByteBudgetWithACursorAndPagingReturnsEveryMessageOnce() {
        List<String> expected = LargeMessages.hashes(rest);
        List<String> seen = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            Http.Reply reply = rest.get(LargeMessages.query("pageSize=100&includeData=true") + (cursor == null ? "" : "&cursor=" + cursor));
            assertThat(reply.status()).as(reply.body()).isEqualTo(200);
            JsonNode page = reply.json();
            long payloadBytes = 0;
            for (JsonNode m : page.get("messages")) {
                seen.add(m.get("messageHash").asText());
                payloadBytes += java.util.Base64.getDecoder().decode(m.get("message").get("payload").asText()).length;
            }
            assertThat(payloadBytes).as("payload bytes of page %d", pages).isLessThanOrEqualTo(BUDGET);
            cursor = page.hasNonNull("paginationCursor") ? page.get("paginationCursor").asText() : null;
            pages++;
            if (cursor != null) {
                assertThat(page.get("messages").size()).as("a page ended by the budget, not by its size of 100").isLessThan(100);
                assertThat(cursor).isEqualTo(seen.get(seen.size() - 1));
            }
        } while (cursor != null);
        assertThat(seen).containsExactlyElementsOf(expected);
        // 6 MiB / about 140 kB of stored bytes per message: 44 per page
        assertThat(pages).isEqualTo(3);
    }

    @Test
    void aQueryBeyondTheLimitIs429WithRetryAfterAndTheSlotIsFreedWhenTheAnswerEnds() throws Exception {
        try (Socket stuck = new Socket()) {
            stuck.setReceiveBufferSize(4096);
            stuck.connect(node.restAddress(), 5_000);
            // with data: an answer of 44 messages, 8 MB of JSON, more than the kernel's socket buffers take (about 4 MB)
            stuck.getOutputStream().write(("GET " + LargeMessages.query("pageSize=100&includeData=true") + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            stuck.getOutputStream().flush();
            InputStream in = stuck.getInputStream();
            byte[] head = new byte[12];
            assertThat(new String(head, 0, in.read(head), StandardCharsets.ISO_8859_1)).startsWith("HTTP/1.1 200");
            // ... and it reads nothing more: its answer holds the one slot
            Eventually.until("the stuck query holds the slot", Duration.ofSeconds(10),
                    () -> Http.metric(node.metrics().scrape(), "waku_store_queries_running") == 1);

            RawHttp.Reply refused = new RawHttp(node.restAddress()).request("GET", LargeMessages.query("pageSize=5&requestId=r2"), null, null);
            assertThat(refused.status()).as(refused.body()).isEqualTo(429);
            assertThat(refused.head()).containsIgnoringCase("retry-after: 1");
            JsonNode body = Http.JSON.readTree(refused.body());
            assertThat(body.get("statusCode").asInt()).isEqualTo(429);
            assertThat(body.get("requestId").asText()).isEqualTo("r2");
            assertThat(body.get("statusDesc").asText()).contains("--store-max-queries");
            assertThat(Http.metric(node.metrics().scrape(), "waku_store_queries_refused_total")).isPositive();
        }
        // the client hung up with its answer unread: the write fails, the page closes, the slot is free again
        Eventually.until("the slot is freed", Duration.ofSeconds(10),
                () -> Http.metric(node.metrics().scrape(), "waku_store_queries_running") == 0);
        assertThat(rest.get(LargeMessages.query("pageSize=5")).status()).isEqualTo(200);
    }

    /** Before, a query failing inside (here: on an archive that closed) was a 500 outside Store's shape. */
    @Test
    void aQueryThatFailsInsideIsStillAJsonAnswerInStoresShape() throws Exception {
        try (WakuNode other = WakuNode.start(TestNodes.local(dir.resolve("other")).build())) {
            other.archive().close();
            Http.Reply reply = new Http(other.restAddress()).get("/store/v3/messages?includeData=true&requestId=r9");
            assertThat(reply.status()).as(reply.body()).isEqualTo(503);
            assertThat(reply.json().get("statusCode").asInt()).isEqualTo(503);
            assertThat(reply.json().get("requestId").asText()).isEqualTo("r9");
            assertThat(reply.json().get("statusDesc").asText()).isEqualTo("the store is closing");
        }
    }
}
