package io.wakurelay.node.logging;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A log line's values are key-value pairs of the event, never {@code {}} placeholders in its message, so that JSON
 * logs carry each as a field of its own (ADR 0071, docs/configuration.md "Logs"): no SLF4J call in the main sources
 * of any module has a {@code {}} in a string of its arguments. The one exception is the start failure, whose message
 * is the sentence for the operator (ADR 0092). No key is one of the fields the encoder writes itself.
 */
class LogValuesAreKeyValuePairsTest {
    private static final Path ROOT = Path.of("..");
    /** A logging call: the classic API ({@code log.info(...)}) or the fluent one's end ({@code .log(...)}). */
    private static final Pattern CALL = Pattern.compile("\\b(?:log|LOG)\\.(?:trace|debug|info|warn|error)\\(|\\.log\\(");
    private static final Pattern STRING = Pattern.compile("\"(?:\\\\.|[^\"\\\\])*\"");
    private static final Pattern KEY = Pattern.compile("\\.addKeyValue\\(\"([^\"]*)\"");
    /** The fields the JSON encoder writes itself (LogFormat), and nwaku's level tag: a key of these would repeat one. */
    private static final Set<String> RESERVED = Set.of("@timestamp", "@version", "message", "logger_name", "thread_name",
            "level", "level_value", "stack_trace", "tags", "lvl");
    private static final Set<String> ALLOWED = Set.of("NodeMain.java: log.error(\"node failed to start: {}\", "
            + "StartFailures.describe(e))");

    @Test
    void noLogCallOfAnyModuleFormatsItsValuesIntoTheMessage() throws IOException {
        List<String> found = new ArrayList<>();
        List<Path> sources;
        try (Stream<Path> files = Files.walk(ROOT)) {
            sources = files.filter(LogValuesAreKeyValuePairsTest::isMainSource).toList();
        }
        for (Path p : sources) {
            for (String call : placeholderCalls(Files.readString(p))) {
                found.add(p.getFileName() + ": " + call);
            }
        }
        assertThat(sources).as("the main sources were read").hasSizeGreaterThan(300);
        assertThat(found).as("log calls with {} placeholders: give each value as addKeyValue instead")
                .isSubsetOf(ALLOWED);
    }

    @Test
    void noKeyRepeatsAFieldTheJsonEncoderWritesItself() throws IOException {
        List<String> clashes = new ArrayList<>();
        try (Stream<Path> files = Files.walk(ROOT)) {
            for (Path p : files.filter(LogValuesAreKeyValuePairsTest::isMainSource).toList()) {
                Matcher m = KEY.matcher(Files.readString(p));
                while (m.find()) {
                    if (RESERVED.contains(m.group(1))) {
                        clashes.add(p.getFileName() + ": " + m.group(1));
                    }
                }
            }
        }
        assertThat(clashes).as("keys that clash with the JSON encoder's own fields").isEmpty();
    }

    @Test
    void aPlaceholderIsFoundAcrossLinesAndConcatenationsAndAKeyValuePairIsNot() {
        String code = """
                class A {
                    void a() {
                        log.debug("closing " + "{}: {}", connection,
                                reason);
                        log.atInfo().addKeyValue("peer", p).log("connected (" + n + ")");
                        log.atWarn().log("moved "
                                + "to {}", port);
                        log.info("no values");
                    }
                }
                """;
        assertThat(placeholderCalls(code)).containsExactly(
                "log.debug(\"closing \" + \"{}: {}\", connection, reason)",
                ".log(\"moved \" + \"to {}\", port)");
    }

    /** The calls in {@code code} with a {} in one of their string arguments, each with its arguments on one line. */
    static List<String> placeholderCalls(String code) {
        List<String> calls = new ArrayList<>();
        Matcher m = CALL.matcher(code);
        while (m.find()) {
            int end = closingParen(code, m.end());
            String arguments = code.substring(m.end(), end);
            Matcher s = STRING.matcher(arguments);
            while (s.find()) {
                if (s.group().contains("{}")) {
                    calls.add((m.group() + arguments + ")").replaceAll("\\s*\\n\\s*", " ").strip());
                    break;
                }
            }
        }
        return calls;
    }

    /** The index of the parenthesis that closes the one before {@code from}, skipping strings and characters. */
    private static int closingParen(String code, int from) {
        int depth = 1;
        for (int i = from; i < code.length(); i++) {
            char c = code.charAt(i);
            if (c == '"' || c == '\'') {
                for (i++; i < code.length() && code.charAt(i) != c; i++) {
                    if (code.charAt(i) == '\\') {
                        i++;
                    }
                }
            } else if (c == '(') {
                depth++;
            } else if (c == ')' && --depth == 0) {
                return i;
            }
        }
        throw new IllegalStateException("no closing parenthesis after " + from);
    }

    private static boolean isMainSource(Path p) {
        String s = p.toString().replace('\\', '/');
        return s.endsWith(".java") && s.contains("/src/main/java/") && !s.contains("/target/")
                && !s.contains("/node_modules/");
    }
}
