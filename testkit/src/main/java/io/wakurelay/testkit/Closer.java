package io.wakurelay.testkit;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Closes what a test kept, last kept first, after each test, whether it passed or not: nodes, hosts, JavaScript
 * peers. Register it as a field: {@code @RegisterExtension final Closer closer = new Closer();}.
 */
public final class Closer implements AfterEachCallback {
    private final Deque<AutoCloseable> kept = new ArrayDeque<>();

    /** Keeps {@code closeable} to be closed after the test; returns it. */
    public <T extends AutoCloseable> T keep(T closeable) {
        kept.push(closeable);
        return closeable;
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        while (!kept.isEmpty()) {
            kept.pop().close();
        }
    }
}
