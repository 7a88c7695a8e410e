package io.wakurelay.testkit;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.List;

/**
 * Fails a test class when Netty reported a leaked buffer while it ran. Registered for every test class
 * through the service loader (junit.jupiter.extensions.autodetection.enabled).
 */
public final class LeakCheckExtension implements AfterAllCallback {
    @Override
    public void afterAll(ExtensionContext context) {
        if (!LeakDetection.installed()) {
            throw new AssertionError("the leak detector was not installed before the tests ran");
        }
        List<String> leaks = LeakDetection.collectLeaks();
        if (!leaks.isEmpty()) {
            throw new AssertionError(leaks.size() + " leaked buffer(s) in or before "
                    + context.getDisplayName() + ":\n" + String.join("\n\n", leaks));
        }
    }
}
