package io.wakurelay.node;

import io.wakurelay.testkit.Eventually;
import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A node shut down while clients publish over REST: REST stops taking requests first (503 while draining), so
 * that no publish reaches a relay or archive that is closing (before: 500s with ERROR stack traces).
 */
class RestShutdownTest {
    private static final String TOPIC = "/waku/2/rs/0/0";
    private static final int PUBLISHERS = 4;

    @TempDir
    Path dir;

    @Test
    void shutdownStopsRestFirstSoPublishesGet200Or503AndNothingIsLoggedAsAnError() throws Exception {
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        log.start();
        root.addAppender(log);
        try {
            WakuNode node = WakuNode.start(TestNodes.local(dir).build());
            Http rest = new Http(node.restAddress());
            Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();
            AtomicInteger sent = new AtomicInteger();
            List<Thread> publishers = new ArrayList<>();
            for (int p = 0; p < PUBLISHERS; p++) {
                Thread t = new Thread(() -> {
                    while (true) {
                        int n = sent.incrementAndGet();
                        String body = "{\"payload\":\"" + Base64.getEncoder().encodeToString(("m" + n).getBytes()) + "\",\"contentTopic\":\"/app/1/stop/proto\"}";
                        try {
                            int status = rest.post("/relay/v1/messages/" + Http.topic(TOPIC), body).status();
                            statuses.computeIfAbsent(status, s -> new AtomicInteger()).incrementAndGet();
                        } catch (AssertionError closed) {
                            return; // the REST port is closed: the node is gone
                        }
                    }
                }, "publisher-" + p);
                t.start();
                publishers.add(t);
            }
            Eventually.until("publishes are being answered", java.time.Duration.ofSeconds(10),
                    () -> statuses.getOrDefault(200, new AtomicInteger()).get() > 200);
            node.close();
            for (Thread t : publishers) {
                t.join(30_000);
            }
            System.out.println("RestShutdownTest: answers by status while the node shut down: " + statuses);
            assertThat(statuses.keySet()).as("every publish answered 200 or, once draining, 503").isSubsetOf(Set.of(200, 503));
            List<String> errors = log.list.stream().filter(e -> e.getLevel().isGreaterOrEqual(Level.ERROR))
                    .map(e -> e.getLoggerName() + ": " + e.getFormattedMessage()).toList();
            assertThat(errors).as("nothing logged as an error during the shutdown").isEmpty();
        } finally {
            root.detachAppender(log);
        }
    }
}
