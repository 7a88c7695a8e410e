package io.wakurelay.archive;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class QuerySlotsTest {
    @Test
    void aQueryPastTheSlotsIsRefusedAndCountedUntilOneIsReleased() {
        QuerySlots slots = new QuerySlots(2);
        assertThat(slots.tryAcquire()).isTrue();
        assertThat(slots.tryAcquire()).isTrue();
        assertThat(slots.tryAcquire()).isFalse();
        assertThat(slots.refused()).isEqualTo(1);
        slots.release();
        assertThat(slots.tryAcquire()).isTrue();
        assertThat(slots.running()).isEqualTo(2);
    }

    @Test
    void releasingASlotNotTakenIsABug() {
        QuerySlots slots = new QuerySlots(1);
        assertThatThrownBy(slots::release).isInstanceOf(IllegalStateException.class);
        assertThat(slots.running()).isZero();
        assertThat(slots.tryAcquire()).isTrue();
    }
}
