package io.wakurelay.node;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.wakurelay.testkit.Eventually;
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
 * before anything else and logs that, and that line is already JSON, with the peer id as a field of its own. The start
 * line carries the node's values as fields, and a line that names another peer (a static peer connecting) names it in
 * a field.
 */
@Tag("process")
class JsonLogLinesTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void everyLineANodeWritesWithJsonFormatIsAJsonObjectFromTheFirst() throws Exception {
        List<String> lines;
        List<String> linesOfB;
        String peerIdOfA;
        String multiaddrOfA;
        NodeProcess b;
        try (NodeProcess a = NodeProcess.start(List.of("-Xmx256m"), args("a"), Duration.ofSeconds(60), dir.resolve("a.log"))) {
            peerIdOfA = a.peerId();
            multiaddrOfA = a.multiaddr().toString();
            List<String> argsOfB = new ArrayList<>(args("b"));
            argsOfB.addAll(List.of("--staticnode", multiaddrOfA));
            b = NodeProcess.start(List.of("-Xmx256m"), argsOfB, Duration.ofSeconds(60), dir.resolve("b.log"));
            try (b) {
                Eventually.until("B logs its static peer connected", Duration.ofSeconds(30),
                        () -> b.output().stream().anyMatch(l -> l.contains("static peer connected")));
                b.stop(Duration.ofSeconds(30));
                linesOfB = new ArrayList<>(b.output());
            }
            a.stop(Duration.ofSeconds(30));
            lines = new ArrayList<>(a.output()); // the shutdown's lines too
        }
        assertThat(lines).hasSizeGreaterThan(3);
        assertThat(notEvents(lines)).as("lines that are not JSON log events, in:%n%s", String.join("\n", lines)).isEmpty();
        assertThat(notEvents(linesOfB)).as("lines that are not JSON log events, in:%n%s", String.join("\n", linesOfB))
                .isEmpty();
        JsonNode first = JSON.readTree(lines.get(0));
        assertThat(first.get("message").asText()).isEqualTo("created a new secp256k1 node key");
        assertThat(first.get("peer").asText()).startsWith("16Uiu2");
        assertThat(first.get("file").asText()).isEqualTo(dir.resolve("a").resolve("nodekey").toString());

        JsonNode started = event(lines, "node started");
        assertThat(started.get("peerId").asText()).isEqualTo(peerIdOfA);
        assertThat(started.get("listenAddresses").isArray()).isTrue();
        assertThat(started.get("listenAddresses").get(0).asText()).isEqualTo(multiaddrOfA);
        assertThat(started.get("enr").asText()).startsWith("enr:");
        assertThat(started.get("rest").asText()).matches(".+:\\d+");
        assertThat(started.get("metrics").asText()).matches(".+:\\d+");
        assertThat(started.get("version").asText()).isNotBlank();
        assertThat(started.get("cluster").isInt()).isTrue();
        assertThat(started.get("cluster").asInt()).isZero();
        assertThat(started.get("shards").toString()).isEqualTo("[0]");

        JsonNode connected = event(linesOfB, "static peer connected");
        assertThat(connected.get("level").asText()).isEqualTo("INFO");
        assertThat(connected.get("peer").asText()).isEqualTo(peerIdOfA);
        assertThat(connected.get("address").asText()).isEqualTo(multiaddrOfA);
    }

    private List<String> args(String name) {
        return List.of("--data-dir", dir.resolve(name).toString(), "--listen-address", "127.0.0.1",
                "--tcp-port", "0", "--rest-port", "0", "--metrics-server", "--metrics-server-port", "0",
                "--log-format", "JSON");
    }

    /** Every line that is not a JSON log event, reported with the whole output: a stray stack trace names its thread. */
    private static List<String> notEvents(List<String> lines) {
        List<String> notEvents = new ArrayList<>();
        for (String line : lines) {
            try {
                JsonNode event = JSON.readTree(line);
                if (!event.isObject() || !(event.has("@timestamp") && event.has("level") && event.has("logger_name")
                        && event.has("message"))) {
                    notEvents.add(line);
                }
            } catch (JsonProcessingException e) {
                notEvents.add(line);
            }
        }
        return notEvents;
    }

    private static JsonNode event(List<String> lines, String message) throws JsonProcessingException {
        for (String line : lines) {
            JsonNode event = JSON.readTree(line);
            if (event.path("message").asText().equals(message)) {
                return event;
            }
        }
        throw new AssertionError("no '" + message + "' line in:\n" + String.join("\n", lines));
    }
}
