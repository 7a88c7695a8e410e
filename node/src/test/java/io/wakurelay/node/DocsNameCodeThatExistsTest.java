package io.wakurelay.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The docs (README, CONTRIBUTING, docs/ and every module's README.md) name only code that exists: a class named in
 * backticks (`GossipRouter`, `HostTest.aStaticPeer…`) is a
 * class or protobuf message of this repository, or another project's class listed in docs-external-names.txt; a
 * member named after one of our classes is in that class's source. Renaming or removing code without its docs
 * fails here. An ADR may describe code a later decision replaced only when its Status line says so.
 */
class DocsNameCodeThatExistsTest {
    private static final Path ROOT = Path.of("..");
    /** `Name`, `Name.member`, `Name.member(…)`, `Name::member`: CamelCase with at least one inner capital. */
    private static final Pattern NAME = Pattern.compile(
            "`([A-Z][A-Za-z0-9]*[a-z0-9][A-Z][A-Za-z0-9]*)(?:(?:\\.|::|#)([A-Za-z_][A-Za-z0-9_]*))?[^`\\n]*`");
    private static final Pattern FENCE = Pattern.compile("(?ms)^```.*?^```");
    private static final Pattern SUPERSEDED = Pattern.compile("(?m)^Status:.*(superseded|replaced|retired)",
            Pattern.CASE_INSENSITIVE);

    @Test
    void everyClassNamedInTheDocsExistsHereOrIsAnotherProjectsListedClass() throws IOException {
        Map<String, Path> sources = ourSources();
        Set<String> messages = protobufMessages();
        Set<String> external = externalNames();
        List<String> unknown = new ArrayList<>();
        for (Path doc : docs()) {
            String text = FENCE.matcher(Files.readString(doc)).replaceAll("");
            if (doc.getParent().endsWith("adr") && SUPERSEDED.matcher(text).find()) {
                continue; // history, and it says what replaced it
            }
            Matcher m = NAME.matcher(text);
            while (m.find()) {
                String name = m.group(1);
                String member = m.group(2);
                if (sources.containsKey(name)) {
                    if (member != null && !member.equals("java") && !source(sources.get(name)).contains(member)) {
                        unknown.add(ROOT.relativize(doc) + ": " + name + "." + member + " (no such member)");
                    }
                } else if (!messages.contains(name) && !external.contains(name)) {
                    unknown.add(ROOT.relativize(doc) + ": " + name);
                }
            }
        }
        assertThat(unknown).as("names in the docs that are neither our code nor listed in "
                + "node/src/test/resources/docs-external-names.txt (fix the doc; list the name only if it is "
                + "another project's)").isEmpty();
    }

    @Test
    void everyAdrSaysWhetherItStands() throws IOException {
        List<String> without = new ArrayList<>();
        try (Stream<Path> adrs = Files.list(ROOT.resolve("docs/adr"))) {
            for (Path adr : adrs.filter(p -> p.getFileName().toString().matches("\\d{4}-.*\\.md")).sorted().toList()) {
                if (!Pattern.compile("(?m)^Status: ").matcher(Files.readString(adr)).find()) {
                    without.add(adr.getFileName().toString());
                }
            }
        }
        assertThat(without).as("ADRs without a 'Status: ' line (accepted, amended by, superseded by)").isEmpty();
    }

    private static List<Path> docs() throws IOException {
        List<Path> docs = new ArrayList<>(List.of(ROOT.resolve("README.md"), ROOT.resolve("CONTRIBUTING.md")));
        try (Stream<Path> files = Files.walk(ROOT.resolve("docs"))) {
            files.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
        }
        try (Stream<Path> modules = Files.list(ROOT)) {
            modules.map(m -> m.resolve("README.md")).filter(Files::isRegularFile).sorted().forEach(docs::add);
        }
        assertThat(docs).as("module READMEs are read").contains(ROOT.resolve("relay/README.md"));
        return docs;
    }

    private static Map<String, Path> ourSources() throws IOException {
        Map<String, Path> sources = new HashMap<>();
        try (Stream<Path> files = Files.walk(ROOT)) {
            files.filter(p -> p.toString().endsWith(".java") && !excluded(p))
                    .forEach(p -> sources.putIfAbsent(p.getFileName().toString().replace(".java", ""), p));
        }
        // nested types are ours too: `Outer.Inner` is looked up as Outer, and `Inner` on its own as a declared type
        for (Path p : List.copyOf(sources.values())) {
            Matcher m = Pattern.compile("(?:class|record|interface|enum)\\s+([A-Z]\\w*)").matcher(source(p));
            while (m.find()) {
                sources.putIfAbsent(m.group(1), p);
            }
        }
        return sources;
    }

    private static Set<String> protobufMessages() throws IOException {
        Set<String> messages = new TreeSet<>();
        try (Stream<Path> files = Files.walk(ROOT)) {
            for (Path p : files.filter(f -> f.toString().endsWith(".proto") && !excluded(f)).toList()) {
                Matcher m = Pattern.compile("(?m)^\\s*(?:message|enum)\\s+(\\w+)").matcher(source(p));
                while (m.find()) {
                    messages.add(m.group(1));
                }
            }
        }
        return messages;
    }

    /** The names of other projects docs may use (docs-external-names.txt); PackageInfoNamesEveryTypeTest too. */
    static Set<String> externalNames() throws IOException {
        try (var in = DocsNameCodeThatExistsTest.class.getResourceAsStream("/docs-external-names.txt")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .map(l -> l.replaceAll("#.*", "").trim()).filter(l -> !l.isEmpty())
                    .flatMap(l -> Stream.of(l.split("\\s+"))).collect(Collectors.toSet());
        }
    }

    static boolean excluded(Path p) {
        String s = p.toString();
        return s.contains("/target/") || s.contains("/node_modules/") || s.contains("/.git/");
    }

    private static String source(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
