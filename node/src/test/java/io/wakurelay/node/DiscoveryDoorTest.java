package io.wakurelay.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The node knows discovery through a door of six types (ADR 0101): the door itself and its config, the record sink
 * its peer manager implements with the origins it is told, the record, and the DNS tree URL a flag names. Issue 42
 * found node naming 19 types of discovery, the finders' parts among them; a seventh fails here.
 */
class DiscoveryDoorTest {
    private static final Path NODE_MAIN = Path.of("src/main/java");
    private static final Set<String> DOOR = Set.of("io.wakurelay.discovery.Discovery",
            "io.wakurelay.discovery.DiscoveryConfig", "io.wakurelay.discovery.peers.RecordSink",
            "io.wakurelay.discovery.peers.Origin", "io.wakurelay.discovery.enr.Enr",
            "io.wakurelay.discovery.dns.EnrTreeUrl");
    /** A type of discovery, named with its package (an import, or a qualified name in code). */
    private static final Pattern NAMED = Pattern.compile("\\bio\\.wakurelay\\.discovery(?:\\.[a-z]\\w*)*\\.[A-Z]\\w*");
    private static final Pattern COMMENT = Pattern.compile("(?s)/\\*.*?\\*/|//[^\\n]*");

    @Test
    void theNodeNamesNoTypeOfDiscoveryBeyondItsDoor() throws IOException {
        Set<String> named = named(NODE_MAIN);
        assertThat(named).as("the node's main sources were read").contains("io.wakurelay.discovery.Discovery");
        assertThat(named).as("discovery types the node names beyond its door (ADR 0101)").isSubsetOf(DOOR);
    }

    @Test
    void aTypeNamedInCodeIsFoundAndOneNamedInACommentIsNot(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("A.java"), """
                package x;
                import io.wakurelay.discovery.dns.DnsDiscoveryConfig;
                /** {@link io.wakurelay.discovery.discv5.Discv5Service} */
                class A { io.wakurelay.discovery.enr.WakuCapabilities.Capability c; // io.wakurelay.discovery.Gone
                }
                """);
        assertThat(named(dir)).containsExactlyInAnyOrder("io.wakurelay.discovery.dns.DnsDiscoveryConfig",
                "io.wakurelay.discovery.enr.WakuCapabilities");
    }

    private static Set<String> named(Path root) throws IOException {
        Set<String> named = new TreeSet<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path p : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                Matcher m = NAMED.matcher(COMMENT.matcher(read(p)).replaceAll(""));
                while (m.find()) {
                    named.add(m.group());
                }
            }
        }
        return named;
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
