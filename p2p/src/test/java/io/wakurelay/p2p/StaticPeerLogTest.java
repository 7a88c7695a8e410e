package io.wakurelay.p2p;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.testkit.Eventually;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.slf4j.event.KeyValuePair;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An operator sees a static peer come and go at INFO, the peer and its address as key-value pairs of the event
 * (fields of their own in JSON logs).
 */
class StaticPeerLogTest {
    private final TestHosts hosts = new TestHosts();
    private final Logger logger = (Logger) LoggerFactory.getLogger(StaticPeers.class);
    private final ListAppender<ILoggingEvent> events = new ListAppender<>();

    @AfterEach
    void close() {
        hosts.close();
        logger.detachAppender(events);
    }

    @Test
    void aStaticPeerConnectingAndDisconnectingIsLoggedAtInfoWithThePeerAsAField() {
        events.start();
        logger.addAppender(events);
        Host b = hosts.start();
        Multiaddr addressOfB = TestHosts.address(b);
        Host a = hosts.start(x -> x.staticPeers(List.of(addressOfB)));
        Eventually.until(() -> line("static peer connected") != null);

        b.close();
        Eventually.until(() -> line("static peer disconnected; dialling it again") != null);

        for (String message : List.of("static peer connected", "static peer disconnected; dialling it again")) {
            ILoggingEvent event = line(message);
            assertThat(event.getLevel()).isEqualTo(Level.INFO);
            assertThat(fields(event)).containsEntry("peer", b.peerId().toString())
                    .containsEntry("address", addressOfB.toString());
        }
        assertThat(fields(line("static peer disconnected; dialling it again"))).containsKey("reason");
        assertThat(a.peerId()).isNotEqualTo(b.peerId());
    }

    private ILoggingEvent line(String message) {
        synchronized (events) { // AppenderBase appends under its own lock
            return events.list.stream().filter(e -> e.getMessage().equals(message)).findFirst().orElse(null);
        }
    }

    private static Map<String, Object> fields(ILoggingEvent event) {
        Map<String, Object> fields = new LinkedHashMap<>();
        for (KeyValuePair pair : event.getKeyValuePairs()) {
            fields.put(pair.key, pair.value);
        }
        return fields;
    }
}
