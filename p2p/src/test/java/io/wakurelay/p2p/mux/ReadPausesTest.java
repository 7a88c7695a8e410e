package io.wakurelay.p2p.mux;

import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ReadPausesTest {
    private final EmbeddedChannel channel = new EmbeddedChannel();
    private final MuxerPair.RecordingEvents events = new MuxerPair.RecordingEvents();
    private final ReadPauses pauses = new ReadPauses(channel.config(), events);

    @AfterEach
    void close() {
        channel.finishAndReleaseAll();
    }

    @Test
    void readingResumesOnlyWhenNoReasonHoldsItAnyMore() {
        pauses.hold(ReadPauses.Reason.STREAM_BUFFERED);
        pauses.hold(ReadPauses.Reason.UNWRITABLE);
        assertThat(channel.config().isAutoRead()).isFalse();

        pauses.release(ReadPauses.Reason.STREAM_BUFFERED);
        assertThat(channel.config().isAutoRead()).isFalse();

        pauses.release(ReadPauses.Reason.UNWRITABLE);
        assertThat(channel.config().isAutoRead()).isTrue();
    }

    @Test
    void eachPauseIsCountedOnceHoweverOftenItsReasonIsHeld() {
        pauses.hold(ReadPauses.Reason.UNWRITABLE);
        pauses.hold(ReadPauses.Reason.UNWRITABLE);
        pauses.release(ReadPauses.Reason.UNWRITABLE);
        pauses.release(ReadPauses.Reason.UNWRITABLE);
        pauses.hold(ReadPauses.Reason.UNWRITABLE);

        assertThat(events.log).containsExactly("paused unwritable", "paused unwritable");
        assertThat(channel.config().isAutoRead()).isFalse();
    }

    @Test
    void releasingAReasonThatIsNotHeldLeavesAnotherPauseAlone() {
        pauses.hold(ReadPauses.Reason.STREAM_BUFFERED);
        pauses.release(ReadPauses.Reason.UNWRITABLE);

        assertThat(channel.config().isAutoRead()).isFalse();
        assertThat(pauses.isHeld(ReadPauses.Reason.STREAM_BUFFERED)).isTrue();
    }
}
