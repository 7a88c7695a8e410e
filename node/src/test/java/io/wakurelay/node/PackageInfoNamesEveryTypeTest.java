package io.wakurelay.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every package of every module's main code has a package-info.java that names each of its top-level types, as
 * {@code {@link Type}} or {@code {@code Type}} (CONVENTIONS.md: the package's classes in flow order, one line each),
 * and names no type that does not exist. javac checks the {@code {@link}}s themselves (-Xdoclint:reference in the
 * parent pom); this test checks what the links cannot: that nothing is left out, and that the {@code {@code}} names
 * are of real types.
 */
class PackageInfoNamesEveryTypeTest {
    private static final Path ROOT = Path.of("..");
    /** "{@literal {@link a.b.Type}}", "{@literal {@linkplain Type#m}}", "{@literal {@code Type}}": the simple name. */
    private static final String NAMED = "\\{@(?:link|linkplain|code)\\s+(?:[a-z]\\w*\\.)*";
    /** A CamelCase name with an inner capital in {@code …}, as DocsNameCodeThatExistsTest reads backticks. */
    private static final Pattern CODE_NAME = Pattern.compile(
            "\\{@code\\s+(?:[a-z]\\w*\\.)*([A-Z][A-Za-z0-9]*[a-z0-9][A-Z][A-Za-z0-9]*)");
    private static final Pattern DECLARED = Pattern.compile("(?:class|record|interface|enum)\\s+([A-Z]\\w*)");

    @Test
    void everyTypeOfAPackageIsNamedInItsPackageInfo() throws IOException {
        Map<Path, List<String>> unnamed = new TreeMap<>();
        for (Map.Entry<Path, List<Path>> pkg : mainPackages().entrySet()) {
            Path info = pkg.getKey().resolve("package-info.java");
            String text = Files.isRegularFile(info) ? Files.readString(info) : "";
            for (Path type : pkg.getValue()) {
                String name = type.getFileName().toString().replace(".java", "");
                if (!Pattern.compile(NAMED + Pattern.quote(name) + "\\b").matcher(text).find()) {
                    unnamed.computeIfAbsent(ROOT.relativize(info), k -> new ArrayList<>()).add(name);
                }
            }
        }
        assertThat(unnamed).as("types not named ({@link Type} or {@code Type}) in their package's package-info.java: "
                + "add a line saying what each does, in flow order").isEmpty();
    }

    @Test
    void everyTypeAPackageInfoNamesInCodeExists() throws IOException {
        Set<String> known = declaredTypes();
        known.addAll(DocsNameCodeThatExistsTest.externalNames());
        List<String> unknown = new ArrayList<>();
        for (Path pkg : mainPackages().keySet()) {
            Path info = pkg.resolve("package-info.java");
            if (Files.isRegularFile(info)) {
                Matcher m = CODE_NAME.matcher(Files.readString(info));
                while (m.find()) {
                    if (!known.contains(m.group(1))) {
                        unknown.add(ROOT.relativize(info) + ": " + m.group(1));
                    }
                }
            }
        }
        assertThat(unknown).as("{@code Name}s in package-info.java that are no type of ours, no protobuf message and not "
                + "listed in node/src/test/resources/docs-external-names.txt").isEmpty();
    }

    /** Each package directory of a module's src/main/java, with its top-level types (one per file). */
    private static Map<Path, List<Path>> mainPackages() throws IOException {
        Map<Path, List<Path>> packages = new TreeMap<>();
        try (Stream<Path> files = Files.walk(ROOT)) {
            files.filter(p -> p.toString().endsWith(".java") && !p.endsWith("package-info.java")
                            && p.toString().contains("/src/main/java/") && !DocsNameCodeThatExistsTest.excluded(p))
                    .forEach(p -> packages.computeIfAbsent(p.getParent(), k -> new ArrayList<>()).add(p));
        }
        assertThat(packages).as("the packages were read").containsKey(ROOT.resolve("p2p/src/main/java/io/wakurelay/p2p"));
        return packages;
    }

    private static Set<String> declaredTypes() throws IOException {
        Set<String> types = new HashSet<>();
        try (Stream<Path> files = Files.walk(ROOT)) {
            for (Path p : files.filter(f -> !DocsNameCodeThatExistsTest.excluded(f)).toList()) {
                String name = p.getFileName().toString();
                if (name.endsWith(".java")) {
                    types.add(name.replace(".java", ""));
                    Matcher m = DECLARED.matcher(Files.readString(p));
                    while (m.find()) {
                        types.add(m.group(1));
                    }
                } else if (name.endsWith(".proto")) {
                    Matcher m = Pattern.compile("(?m)^\\s*(?:message|enum)\\s+(\\w+)").matcher(Files.readString(p));
                    while (m.find()) {
                        types.add(m.group(1));
                    }
                }
            }
        }
        return types;
    }
}
