package io.wakurelay.node;

import io.wakurelay.node.config.ConfigSources;
import io.wakurelay.node.config.NodeOptions;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** docs/configuration.md shows exactly what {@code --help} prints. */
class ConfigurationDocTest {
    private static final Path DOC = Path.of("..", "docs", "configuration.md");

    @Test
    void theHelpInTheConfigurationPageIsTheNodesHelp() throws Exception {
        String doc = Files.readString(DOC);
        int start = doc.indexOf("```\nUsage: wakurelay-node");
        assertThat(start).as("the --help block in docs/configuration.md").isNotNegative();
        int end = doc.indexOf("```", start + 3);
        String documented = doc.substring(start + 4, end).strip();
        String help = NodeOptions.commandLine(new NodeOptions(), ConfigSources.builtIn()).getUsageMessage(CommandLine.Help.Ansi.OFF).strip();

        assertThat(documented).isEqualTo(help);
    }
}
