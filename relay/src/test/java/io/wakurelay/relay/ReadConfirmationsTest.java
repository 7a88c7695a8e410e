package io.wakurelay.relay;

import io.wakurelay.p2p.connection.Connection;
import io.wakurelay.p2p.connection.Stream;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ReadConfirmationsTest {
    /** The streams opened on the stub connection, each answered when the test says. */
    private final List<Sinks.One<Stream>> opened = new ArrayList<>();

    private final Connection connection = (Connection) Proxy.newProxyInstance(getClass().getClassLoader(),
            new Class<?>[] {Connection.class}, (proxy, method, args) -> switch (method.getName()) {
                case "isOpen" -> true;
                case "openStream" -> {
                    Sinks.One<Stream> answer = Sinks.one();
                    opened.add(answer);
                    yield answer.asMono();
                }
                default -> throw new UnsupportedOperationException(method.getName());
            });

    /**
     * The attacker: a peer that does not answer while a client subscribes in a loop. One stream is open and one
     * confirmation waits, shared by every call that came meanwhile: nothing grows with the number of calls.
     */
    @Test
    void callsWhileAConfirmationRunsShareOneWaitingConfirmation() {
        ReadConfirmations.PeerReads reads = new ReadConfirmations.PeerReads();
        List<Boolean> done = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            int index = i;
            done.add(false);
            reads.after(connection).subscribe(null, null, () -> done.set(index, true));
        }
        assertThat(opened).as("one stream at a time").hasSize(1);

        opened.get(0).tryEmitError(new IllegalStateException("reset")); // any answer confirms
        assertThat(done.get(0)).isTrue();
        assertThat(done.subList(1, 100)).as("the rest wait for a stream opened after their writes").containsOnly(false);
        assertThat(opened).as("the waiting confirmation, one for all 99").hasSize(2);

        opened.get(1).tryEmitError(new IllegalStateException("not supported"));
        assertThat(done).containsOnly(true);
        assertThat(opened).as("nothing left waiting").hasSize(2);

        reads.after(connection).subscribe();
        assertThat(opened).as("the next call starts at once").hasSize(3);
    }

    @Test
    void aClosedConnectionConfirmsAtOnce() {
        ReadConfirmations.PeerReads reads = new ReadConfirmations.PeerReads();
        assertThat(reads.after(null).block(java.time.Duration.ofSeconds(1))).isNull();
        assertThat(reads.after(null).block(java.time.Duration.ofSeconds(1))).isNull();
    }
}
