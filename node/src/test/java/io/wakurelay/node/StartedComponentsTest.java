package io.wakurelay.node;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class StartedComponentsTest {
    private final List<String> events = new ArrayList<>();
    private final AtomicLong now = new AtomicLong();
    private final StartedComponents components = new StartedComponents(now::get);

    private void add(String name, Duration takes) {
        components.add(name, name, grace -> {
            events.add("shutdown " + name + " " + grace.toSeconds() + "s");
            now.addAndGet(takes.toNanos());
            return Mono.empty();
        }, () -> events.add("close " + name));
    }

    @Test
    void componentsShutDownNewestFirstAndAreAllClosedAfterwards() {
        add("archive", Duration.ZERO);
        add("relay", Duration.ZERO);
        add("rest", Duration.ZERO);

        components.stop(Duration.ofSeconds(30));

        assertThat(events).containsExactly("shutdown rest 30s", "shutdown relay 30s", "shutdown archive 30s",
                "close rest", "close relay", "close archive");
    }

    @Test
    void theGraceIsSharedSoEachComponentGetsWhatThoseBeforeItLeft() {
        add("archive", Duration.ZERO);
        add("relay", Duration.ofSeconds(25));
        add("rest", Duration.ofSeconds(4));

        components.stop(Duration.ofSeconds(30));

        assertThat(events).startsWith("shutdown rest 30s", "shutdown relay 26s", "shutdown archive 1s");
    }

    @Test
    void aSlowShutdownIsLoggedWithTheTimeItTookAndAQuickOneIsNot() {
        Logger logger = (Logger) LoggerFactory.getLogger(StartedComponents.class);
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        log.start();
        logger.addAppender(log);
        try {
            add("archive", Duration.ofMillis(999));
            add("rest", Duration.ofSeconds(19));

            components.stop(Duration.ofSeconds(20));

            assertThat(log.list).extracting(ILoggingEvent::getFormattedMessage)
                    .containsExactly("a component was slow to shut down");
            assertThat(log.list.get(0).getKeyValuePairs()).extracting(p -> p.key + "=" + p.value)
                    .containsExactly("component=rest", "ms=19000", "graceMs=20000");
        } finally {
            logger.detachAppender(log);
        }
    }

    @Test
    void aShutdownThatNeverEndsIsCutAtItsShareAndTheOthersStillStop() {
        components.add("archive", "archive", grace -> Mono.empty(), () -> events.add("close archive"));
        components.add("stuck", "stuck", grace -> Mono.never(), () -> events.add("close stuck"));

        components.stop(Duration.ofMillis(50));

        assertThat(events).containsExactly("close stuck", "close archive");
    }

    @Test
    void aFailingShutdownOrCloseDoesNotStopTheOthersFromClosing() {
        components.add("archive", "archive", grace -> Mono.empty(), () -> events.add("close archive"));
        components.add("broken", "broken", grace -> Mono.error(new IllegalStateException("boom")), () -> {
            throw new IllegalStateException("boom");
        });

        components.stop(Duration.ofSeconds(1));

        assertThat(events).containsExactly("close archive");
    }

    @Test
    void unwindingAFailedStartClosesWhatStartedNewestFirstWithoutShuttingDown() {
        add("archive", Duration.ZERO);
        add("relay", Duration.ZERO);

        components.unwind();
        components.unwind();

        assertThat(events).containsExactly("close relay", "close archive");
    }
}
