package io.wakurelay.node;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code --log-format JSON} is JSON from the first line: a node started on a new data directory creates its node key
 * before anything else and logs that, and that line is already JSON, with the peer id as a field of its own.
 */
@Tag("process")
class JsonLogLinesTest {
    @TempDir
    Path dir;

    @Test
    void everyLineANodeWritesWithJsonFormatIsAJsonObjectFromTheFirst() throws Exception {
        List<String> args = List.of("--data-dir", dir.resolve("data").toString(), "--listen-address", "127.0.0.1",
                "--tcp-port", "0", "--rest-port", "0", "--metrics-server-port", "0", "--log-format", "JSON");
        List<String> lines;
        try (NodeProcess node = NodeProcess.start(List.of("-Xmx256m"), args, Duration.ofSeconds(60), dir.resolve("node.log"))) {
            node.stop(Duration.ofSeconds(30));
            lines = new ArrayList<>(node.output()); // the shutdown's lines too
        }
        assertThat(lines).hasSizeGreaterThan(3);
        ObjectMapper json = new ObjectMapper();
        // every line that is not a JSON log event, reported with the whole output: a stray stack trace names its thread
        List<String> notEvents = new ArrayList<>();
        for (String line : lines) {
            try {
                JsonNode event = json.readTree(line);
                if (!event.isObject() || !(event.has("@timestamp") && event.has("level") && event.has("logger_name")
                        && event.has("message"))) {
                    notEvents.add(line);
                }
            } catch (JsonProcessingException e) {
                notEvents.add(line);
            }
        }
        assertThat(notEvents).as("lines that are not JSON log events, in:%n%s", String.join("\n", lines)).isEmpty();
        JsonNode first = json.readTree(lines.get(0));
        assertThat(first.get("message").asText()).isEqualTo("created a new secp256k1 node key");
        assertThat(first.get("peer").asText()).startsWith("16Uiu2");
    }
}
