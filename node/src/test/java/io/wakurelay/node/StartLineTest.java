package io.wakurelay.node;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.wakurelay.archive.RetentionPolicy;
import io.wakurelay.node.config.NodeConfig;
import io.wakurelay.node.config.RetentionText;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import org.slf4j.event.KeyValuePair;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The start line says the data directory as a path without {@code .} or {@code ..}, and the retention in nwaku's form,
 * each value a key-value pair of the event (a field of its own in JSON logs).
 */
class StartLineTest {
    @TempDir
    Path dir;

    private final AtomicReference<ILoggingEvent> lastStartLine = new AtomicReference<>();
    private ListAppender<ILoggingEvent> appender;

    @Test
    void theRetentionIsWrittenAsNwakuWritesIt() {
        assertThat(RetentionText.format(new RetentionPolicy.Size(1L << 30))).isEqualTo("size:1GB");
        assertThat(RetentionText.format(new RetentionPolicy.Size(512L << 20))).isEqualTo("size:512MB");
        assertThat(RetentionText.format(new RetentionPolicy.Size(3L << 29))).isEqualTo("size:1536MB");
        assertThat(RetentionText.format(new RetentionPolicy.Size(4096))).isEqualTo("size:0.00390625MB");
        assertThat(RetentionText.format(new RetentionPolicy.Time(java.time.Duration.ofDays(2)))).isEqualTo("time:172800");
        assertThat(RetentionText.format(new RetentionPolicy.Capacity(1000))).isEqualTo("capacity:1000");
        assertThat(RetentionText.format(new RetentionPolicy.None())).isEqualTo("none");
    }

    @Test
    void theStartLineHasTheNormalisedDataDirAndNwakusRetention() throws Exception {
        java.nio.file.Files.createDirectory(dir.resolve("a"));
        Path given = dir.resolve("a").resolve("..").resolve(".").resolve("data");
        NodeConfig config = TestNodes.local(given).build();
        config = config.toBuilder().archive(config.archive()
                .withCore(c -> c.retention(new RetentionPolicy.Size(1L << 30)))).build();
        Map<String, Object> fields = startLineFields(config);
        assertThat(fields).containsEntry("store", "size:1GB")
                .containsEntry("dataDir", dir.resolve("data").toAbsolutePath().toString());
        assertThat((String) fields.get("dataDir")).doesNotContain("/..").doesNotContain("/./");
    }

    /**
     * A log shipper reads the start line's values as fields of their own (ADR 0071): peer id, listen addresses, ENR,
     * REST, metrics, version, cluster and shards, each a key-value pair of the event, lists as lists.
     */
    @Test
    void theStartLineCarriesItsValuesAsFields() throws Exception {
        NodeConfig config = TestNodes.local(dir.resolve("data")).build();
        config = config.toBuilder().relay(config.relay().toBuilder().clusterId(3)
                .pubsubTopics(List.of("/waku/2/rs/3/2", "/waku/2/rs/3/5")).build()).build();
        try (WakuNode node = WakuNode.start(config)) {
            Map<String, Object> fields = fieldsOf(lastStartLine.get());
            assertThat(fields).containsEntry("peerId", node.peerId())
                    .containsEntry("listenAddresses", node.listenAddresses())
                    .containsEntry("enr", node.enrUri())
                    .containsEntry("rest", "127.0.0.1:" + node.restAddress().getPort())
                    .containsEntry("metrics", "off")
                    .containsEntry("version", WakuNode.VERSION)
                    .containsEntry("cluster", 3)
                    .containsEntry("shards", List.of(2, 5))
                    .containsEntry("topics", List.of("/waku/2/rs/3/2", "/waku/2/rs/3/5"));
            assertThat(lastStartLine.get().getFormattedMessage()).isEqualTo("node started");
        }
    }

    private Map<String, Object> startLineFields(NodeConfig config) {
        try (WakuNode node = WakuNode.start(config)) {
            return fieldsOf(lastStartLine.get());
        }
    }

    @org.junit.jupiter.api.BeforeEach
    void listen() {
        ListAppender<ILoggingEvent> appender = new ListAppender<>() {
            @Override
            protected void append(ILoggingEvent event) {
                if (event.getMessage().equals("node started")) {
                    lastStartLine.set(event);
                }
            }
        };
        appender.start();
        logger().addAppender(appender);
        this.appender = appender;
    }

    @org.junit.jupiter.api.AfterEach
    void stopListening() {
        logger().detachAppender(appender);
    }

    private static Logger logger() {
        return (Logger) LoggerFactory.getLogger(WakuNode.class);
    }

    private static Map<String, Object> fieldsOf(ILoggingEvent event) {
        assertThat(event).as("a 'node started' event").isNotNull();
        Map<String, Object> fields = new LinkedHashMap<>();
        for (KeyValuePair pair : event.getKeyValuePairs()) {
            fields.put(pair.key, pair.value);
        }
        return fields;
    }
}
