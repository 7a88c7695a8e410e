package io.wakurelay.node;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A configuration the node refuses says, in one or two lines and without a stack trace, which option to change and,
 * for a value from the environment or the config file, where it came from.
 */
class ConfigurationErrorsTest {
    @TempDir
    Path dir;

    private void assertRefused(Map<String, String> env, String message, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--data-dir", dir.toString()));
        assertThatThrownBy(() -> NodeMain.parse(all.toArray(String[]::new), env)).hasMessageContaining(message);
    }

    /** What {@code NodeMain.run} prints for {@code args}: exit code 2, and stderr. */
    private String runRefused(Map<String, String> env, String... args) {
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        int code;
        try {
            code = NodeMain.run(args, env);
        } finally {
            System.setErr(err);
        }
        assertThat(code).isEqualTo(NodeMain.EXIT_CONFIG);
        String printed = captured.toString(StandardCharsets.UTF_8);
        assertThat(printed.lines()).as(printed).hasSize(2).noneMatch(l -> l.strip().startsWith("at "));
        return printed;
    }

    @Test
    void aBadValueFromTheEnvironmentSaysWhichVariable() {
        assertThat(runRefused(Map.of("WAKUNODE2_TCP_PORT", "x"), "--data-dir", dir.toString()))
                .contains("'--tcp-port'", "(from environment variable WAKUNODE2_TCP_PORT)");
        assertRefused(Map.of("WAKURELAY_MAX_MSG_SIZE", "12XB"),
                "(--max-msg-size came from the environment variable WAKURELAY_MAX_MSG_SIZE)");
        assertRefused(Map.of("WAKURELAY_MAX_MSG_SIZE", "12XB"), "--max-msg-size: ", "--max-msg-size", "12XB");
    }

    @Test
    void aBadValueFromTheConfigFileSaysWhichFile() throws Exception {
        Path file = Files.writeString(dir.resolve("node.toml"), "max-msg-size = \"12XB\"\nrest-port = \"many\"\n");
        assertThat(runRefused(Map.of(), "--config-file", file.toString(), "--rest-port", "9000", "--data-dir",
                dir.toString())).contains("--max-msg-size", "came from the config file " + file);
        assertThat(runRefused(Map.of(), "--config-file", file.toString(), "--data-dir", dir.toString()))
                .contains("'--rest-port'", "(from config file " + file + ")");
    }

    @Test
    void errorsNameTheOptionThatIsWrong() {
        assertRefused(Map.of(), "--cluster-id must be in 0..65535, was -1", "--cluster-id=-1");
        assertRefused(Map.of(), "--discv5-bootstrap-node: ", "--discv5-bootstrap-node=enr:-nonsense");
        assertThatThrownBy(() -> NodeMain.parse(new String[]{"--data-dir", dir.toString(),
                "--discv5-bootstrap-node=enr:-nonsense"}, Map.of())).hasMessageNotContaining("--rate-limit")
                .hasMessageNotContaining("--filter");
        assertThatThrownBy(() -> NodeMain.parse(new String[]{"--data-dir", dir.toString(), "--cluster-id=-1"}, Map.of()))
                .hasMessageNotContaining("--num-shards-in-network");
    }

    @Test
    void aConfigFileKeyThatIsNoOptionOfOursOrNwakusStopsTheStartWithTheClosestOne() throws Exception {
        Path file = Files.writeString(dir.resolve("node.toml"), "tcp-prot = 60001\nagent-string = \"nwaku\"\n");
        assertThat(runRefused(Map.of(), "--config-file", file.toString(), "--data-dir", dir.toString()))
                .contains("'tcp-prot' (did you mean 'tcp-port'?) is no option of this node's or nwaku's")
                .doesNotContain("agent-string");
        Path nwakus = Files.writeString(dir.resolve("nwaku.toml"), "agent-string = \"nwaku\"\n");
        List<String> warnings = new ArrayList<>();
        NodeMain.parse(new String[]{"--config-file", nwakus.toString(), "--data-dir", dir.toString()}, Map.of(),
                warnings::add);
        assertThat(warnings).as("nwaku's keys we do not have stay warnings").singleElement().asString()
                .contains("agent-string");
    }

    @Test
    void anUnknownOptionIsAnErrorEvenBesideHelp() {
        assertThat(runRefused(Map.of(), "--help", "--no-such-flag")).contains("Unknown option: '--no-such-flag'");
        assertThat(runRefused(Map.of(), "--version", "--tcp-prot=1")).contains("--tcp-prot");
    }

    @Test
    void aDataDirInAFileIsNamedAsTheDataDir() throws Exception {
        Path file = Files.writeString(dir.resolve("afile"), "");
        assertThatThrownBy(() -> NodeMain.parse(new String[]{"--data-dir", file.resolve("data").toString()}, Map.of()))
                .hasMessage("--data-dir: cannot make " + file.resolve("data") + ": " + file + " is a file, not a directory");
    }
}
