package io.wakurelay.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every module's packages form a tree: no package reaches itself again through the packages it uses (a circle makes
 * a module one lump that can only be read, tested and changed whole). The graph is read from the main sources of
 * every module: a package uses another when its code (not its comments) names a type of it.
 */
class PackageGraphTest {
    private static final Path ROOT = Path.of("..");
    private static final Pattern PACKAGE = Pattern.compile("(?m)^package ([\\w.]+);");
    private static final Pattern USE = Pattern.compile("\\b(io\\.wakurelay(?:\\.[a-z]\\w*)+)\\.[A-Z]");
    private static final Pattern DISCOVERY_TYPE = Pattern.compile("\\bio\\.wakurelay\\.discovery((?:\\.[a-z]\\w*)*\\.[A-Z]\\w*)");
    private static final Pattern COMMENT = Pattern.compile("(?s)/\\*.*?\\*/|//[^\\n]*");

    @Test
    void noPackageOfAnyModuleUsesItselfThroughOthers() throws IOException {
        Map<String, Set<String>> uses = packageGraph();
        assertThat(uses).as("the graph was read").containsKeys("io.wakurelay.node", "io.wakurelay.p2p",
                "io.wakurelay.relay");
        assertThat(circles(uses)).as("package circles, each with the edges that close it").isEmpty();
    }

    /**
     * The node wires discovery through its door ({@code Discovery}, its config, the record sink the peer manager
     * implements) and names few of its inner types (issue 42: at most 6): a finder's detail stays in discovery.
     */
    @Test
    void theNodeUsesAtMostSixTypesOfDiscovery() throws IOException {
        Set<String> types = new TreeSet<>();
        try (Stream<Path> files = Files.walk(ROOT.resolve("node"))) {
            for (Path p : files.filter(PackageGraphTest::isMainSource).toList()) {
                Matcher m = DISCOVERY_TYPE.matcher(COMMENT.matcher(read(p)).replaceAll(""));
                while (m.find()) {
                    types.add(m.group(1));
                }
            }
        }
        assertThat(types).as("discovery's types the node's main code names").isNotEmpty().hasSizeLessThanOrEqualTo(6);
    }

    @Test
    void aCircleIsFound() {
        Map<String, Set<String>> uses = Map.of("a", Set.of("a.b"), "a.b", Set.of("a.c"), "a.c", Set.of("a"),
                "d", Set.of("a"));
        assertThat(circles(uses)).containsExactly("[a, a.b, a.c]: a -> a.b, a.b -> a.c, a.c -> a");
    }

    private static Map<String, Set<String>> packageGraph() throws IOException {
        Map<String, Set<String>> uses = new TreeMap<>();
        try (Stream<Path> files = Files.walk(ROOT)) {
            for (Path p : files.filter(PackageGraphTest::isMainSource).toList()) {
                String code = COMMENT.matcher(read(p)).replaceAll("");
                Matcher pkg = PACKAGE.matcher(code);
                if (!pkg.find()) {
                    continue;
                }
                Set<String> used = uses.computeIfAbsent(pkg.group(1), k -> new TreeSet<>());
                Matcher m = USE.matcher(code);
                while (m.find()) {
                    if (!m.group(1).equals(pkg.group(1))) {
                        used.add(m.group(1));
                    }
                }
            }
        }
        return uses;
    }

    /** Tarjan's strongly connected components of more than one package, each with the edges inside it. */
    static List<String> circles(Map<String, Set<String>> uses) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new HashSet<>();
        List<String> found = new ArrayList<>();
        for (String v : new TreeSet<>(uses.keySet())) {
            if (!index.containsKey(v)) {
                connect(v, uses, index, low, stack, onStack, found);
            }
        }
        return found;
    }

    private static void connect(String v, Map<String, Set<String>> uses, Map<String, Integer> index,
                                Map<String, Integer> low, Deque<String> stack, Set<String> onStack, List<String> found) {
        index.put(v, index.size());
        low.put(v, index.get(v));
        stack.push(v);
        onStack.add(v);
        for (String w : uses.getOrDefault(v, Set.of())) {
            if (!index.containsKey(w)) {
                connect(w, uses, index, low, stack, onStack, found);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (onStack.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            Set<String> component = new TreeSet<>();
            String w;
            do {
                w = stack.pop();
                onStack.remove(w);
                component.add(w);
            } while (!w.equals(v));
            if (component.size() > 1) {
                List<String> edges = new ArrayList<>();
                for (String from : component) {
                    for (String to : new TreeSet<>(uses.getOrDefault(from, Set.of()))) {
                        if (component.contains(to)) {
                            edges.add(from + " -> " + to);
                        }
                    }
                }
                found.add(component + ": " + String.join(", ", edges));
            }
        }
    }

    private static boolean isMainSource(Path p) {
        String s = p.toString().replace('\\', '/');
        return s.endsWith(".java") && s.contains("/src/main/java/") && !s.contains("/target/")
                && !s.contains("/node_modules/");
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
