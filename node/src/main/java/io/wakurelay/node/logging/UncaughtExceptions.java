package io.wakurelay.node.logging;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Uncaught exceptions go to the log, not to standard error. The JVM's own handler prints
 * {@code Exception in thread "..."} and a bare stack trace, which breaks {@code --log-format JSON} for log shippers
 * and never reaches a level filter; Reactor's schedulers hand a task's unhandled error to the same handler.
 */
public final class UncaughtExceptions {
    private static final Logger log = LoggerFactory.getLogger(UncaughtExceptions.class);

    private UncaughtExceptions() {
    }

    /** Installs the JVM-wide default handler; threads with a handler of their own keep it. */
    public static void logThem() {
        Thread.setDefaultUncaughtExceptionHandler(UncaughtExceptions::logged);
    }

    static void logged(Thread thread, Throwable error) {
        log.atError().addKeyValue("thread", thread.getName()).addKeyValue("reason", error.toString()).setCause(error)
                .log("uncaught exception");
    }
}
