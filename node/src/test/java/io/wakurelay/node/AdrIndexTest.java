package io.wakurelay.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/adr/README.md lists every ADR, in number order, as {@code | [NNNN](file.md) | title | status |}: the title is
 * the first line's after {@code NNNN: }, the status the {@code Status:} paragraph up to its first {@code ": "},
 * {@code " ("}, {@code ". "} or final {@code "."}, links written as their text. Adding an ADR, or changing an ADR's
 * title or status, fails here until its row says the same; the failure prints the row to paste.
 */
class AdrIndexTest {
    private static final Path ADRS = Path.of("..", "docs", "adr");
    private static final Pattern ADR_FILE = Pattern.compile("\\d{4}-.*\\.md");
    private static final Pattern TITLE = Pattern.compile("^#\\s*(?:ADR\\s+)?\\d{4}:\\s*(.*)$");
    private static final Pattern STATUS = Pattern.compile("(?ms)^Status: (.*?)(?:\\n\\s*\\n|\\z)");
    private static final Pattern LINK = Pattern.compile("\\[([^\\]]*)]\\([^)]*\\)");
    private static final Pattern STATUS_END = Pattern.compile(": | \\(|\\. |\\.$");
    private static final Pattern ROW = Pattern.compile("(?m)^\\| \\[\\d{4}]\\(.*\\|$");

    @Test
    void theIndexListsEveryAdrWithItsTitleAndStatus() throws IOException {
        List<String> expected = new ArrayList<>();
        for (Path adr : adrs()) {
            expected.add(row(adr.getFileName().toString(), Files.readString(adr)));
        }
        List<String> listed = new ArrayList<>();
        Matcher m = ROW.matcher(Files.readString(ADRS.resolve("README.md")));
        while (m.find()) {
            listed.add(m.group());
        }
        assertThat(listed).as("the rows of docs/adr/README.md, one per ADR in number order (paste the expected rows; "
                + "see CONTRIBUTING.md, \"Adding an ADR\")").containsExactlyElementsOf(expected);
    }

    @Test
    void aRowTakesTheTitleAndTheStatusUpToItsFirstClause() {
        String adr = """
                # ADR 0042: One connection per peer id

                Status: accepted; amended by [ADR 0086](0086-connection-trimming.md) (an upgraded inbound
                connection may now be closed).

                ## Context
                """;
        assertThat(row("0042-one-connection.md", adr))
                .isEqualTo("| [0042](0042-one-connection.md) | One connection per peer id | accepted; amended by ADR 0086 |");
        assertThat(row("0001-a.md", "# 0001: A\n\nStatus: accepted.\n"))
                .isEqualTo("| [0001](0001-a.md) | A | accepted |");
    }

    static String row(String file, String text) {
        Matcher title = TITLE.matcher(text.lines().findFirst().orElse(""));
        Matcher status = STATUS.matcher(text);
        assertThat(title.matches()).as(file + ": a first line '# ADR NNNN: title'").isTrue();
        assertThat(status.find()).as(file + ": a 'Status: ' line").isTrue();
        String words = String.join(" ", LINK.matcher(status.group(1)).replaceAll("$1").trim().split("\\s+"));
        String shortStatus = STATUS_END.split(words, 2)[0];
        return "| [" + file.substring(0, 4) + "](" + file + ") | " + title.group(1).trim() + " | " + shortStatus + " |";
    }

    private static List<Path> adrs() throws IOException {
        try (Stream<Path> files = Files.list(ADRS)) {
            return files.filter(p -> ADR_FILE.matcher(p.getFileName().toString()).matches()).sorted().toList();
        }
    }
}
