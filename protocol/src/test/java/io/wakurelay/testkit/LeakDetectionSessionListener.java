package io.wakurelay.testkit;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/** Installs {@link LeakDetection} when the test launcher starts, before any test class is loaded. */
public final class LeakDetectionSessionListener implements LauncherSessionListener {
    @Override
    public void launcherSessionOpened(LauncherSession session) {
        LeakDetection.install();
    }
}
