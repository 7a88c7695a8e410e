package io.wakurelay.relay;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Timer;
import io.wakurelay.testkit.Closer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/metrics.md's "Relay validation" section is what a relay with a validator serves beyond one without (the node's
 * {@code MetricNamesTest} has no validator and leaves the section out), each name as Prometheus shows it; and every
 * label value is there from the start.
 */
class ValidationMetricsDocTest {
    private static final Path METRICS_DOC = Path.of("..", "docs", "metrics.md");
    private static final Pattern ROW = Pattern.compile("^\\| `([a-z0-9_]+)`", Pattern.MULTILINE);
    @RegisterExtension
    final Closer closer = new Closer();

    private static Set<String> documented() throws Exception {
        String doc = Files.readString(METRICS_DOC);
        int from = doc.indexOf("## Relay validation");
        String section = doc.substring(from, doc.indexOf("\n## ", from + 1));
        Set<String> names = new TreeSet<>();
        Matcher row = ROW.matcher(section);
        while (row.find()) {
            names.add(row.group(1));
        }
        return names;
    }

    /** The name Prometheus shows for {@code meter}. */
    private static String prometheusName(Meter meter) {
        String name = meter.getId().getName().replace('.', '_');
        if (meter instanceof Counter || meter instanceof FunctionCounter) {
            return name + "_total";
        }
        return meter instanceof Timer ? name + "_seconds" : name;
    }

    private static Set<String> served(TestNode node) {
        Set<String> names = new TreeSet<>();
        node.registry.getMeters().stream()
                // a timer's buckets: Prometheus shows them as the timer's own _bucket series
                .filter(m -> !m.getId().getName().endsWith(".histogram"))
                .forEach(m -> names.add(prometheusName(m)));
        return names;
    }

    @Test
    void aRelayWithAValidatorServesTheValidationSectionAndOneWithoutServesNoneOfIt() throws Exception {
        TestNode with = closer.keep(new TestNode(0, TestNode.fastConfig(), new FakeRlnValidator()));
        TestNode without = closer.keep(new TestNode(1, TestNode.fastConfig(), (io.wakurelay.relay.validation.RelayValidator) null));

        Set<String> extra = served(with);
        extra.removeAll(served(without));

        assertThat(extra).isEqualTo(documented());
        assertThat(with.counter("waku.relay.validation.rejected", "reason", FakeRlnValidator.INVALID_PROOF))
                .as("registered at 0").isZero();
        assertThat(with.registry.find("waku.relay.validation.ignored").tag("reason", "peer_budget").counter()).isNotNull();
        assertThat(with.registry.find("waku.relay.validation.rejected").tag("reason", "peer_budget").counter())
                .as("the relay's own reasons are ignores").isNull();
    }
}
