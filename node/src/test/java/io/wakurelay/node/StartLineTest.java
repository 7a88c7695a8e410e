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

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The start line says the data directory as a path without {@code .} or {@code ..}, and the retention in nwaku's form. */
class StartLineTest {
    @TempDir
    Path dir;

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
        Logger logger = (Logger) LoggerFactory.getLogger(WakuNode.class);
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        log.start();
        logger.addAppender(log);
        try (WakuNode node = WakuNode.start(config)) {
            String line = log.list.stream().map(ILoggingEvent::getFormattedMessage)
                    .filter(m -> m.startsWith("node started")).findFirst().orElseThrow();
            assertThat(line).contains(" store=size:1GB ", " dataDir=" + dir.resolve("data").toAbsolutePath() + " ")
                    .doesNotContain("/..").doesNotContain("/./");
        } finally {
            logger.detachAppender(log);
        }
    }
}
