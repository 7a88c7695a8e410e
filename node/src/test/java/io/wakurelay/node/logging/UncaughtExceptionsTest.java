package io.wakurelay.node.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;

class UncaughtExceptionsTest {
    @Test
    void aThreadsUncaughtExceptionIsLoggedAsAnErrorWithItsStackTrace() throws Exception {
        Logger logger = (Logger) LoggerFactory.getLogger(UncaughtExceptions.class);
        ListAppender<ILoggingEvent> events = new ListAppender<>();
        events.start();
        logger.addAppender(events);
        Thread.UncaughtExceptionHandler before = Thread.getDefaultUncaughtExceptionHandler();
        try {
            UncaughtExceptions.logThem();
            Thread thread = new Thread(() -> {
                throw new IllegalStateException("closed under its feet");
            }, "archive-like-worker");
            thread.start();
            thread.join();
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(before);
            logger.detachAppender(events);
        }
        assertThat(events.list).singleElement().satisfies(event -> {
            assertThat(event.getLevel()).isEqualTo(Level.ERROR);
            assertThat(event.getFormattedMessage()).isEqualTo("uncaught exception");
            assertThat(event.getKeyValuePairs()).extracting(p -> p.key + "=" + p.value).containsExactly(
                    "thread=archive-like-worker", "reason=java.lang.IllegalStateException: closed under its feet");
            assertThat(event.getThrowableProxy().getMessage()).isEqualTo("closed under its feet");
        });
    }
}
