package io.wakurelay.loadgen;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class MeshHopsTest {
    /** A line 0 - 1 - 2 - 3, both ways. */
    private static final List<int[]> LINE = List.of(new int[]{1}, new int[]{0, 2}, new int[]{1, 3}, new int[]{2});

    @Test
    void aLineOfFourHasDiameterThreeAndItsEndsAreThreeHopsApart() {
        MeshHops hops = MeshHops.of(LINE, new int[]{0});

        assertThat(hops.diameter()).isEqualTo(3);
        assertThat(hops.maxFromEntries()).isEqualTo(3);
        assertThat(hops.meanFromEntries()).isEqualTo(2.0); // (1 + 2 + 3) / 3
    }

    @Test
    void theMeanIsOverTheMessagesEntryNodes() {
        // from 1: 1, 1, 2 hops (mean 4/3); from 0: mean 2; two messages at 1 and one at 0
        MeshHops hops = MeshHops.of(LINE, new int[]{1, 1, 0});

        assertThat(hops.maxFromEntries()).isEqualTo(3);
        assertThat(hops.meanFromEntries()).isCloseTo((4.0 / 3 + 4.0 / 3 + 2) / 3, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void aNodeNoneCanReachMakesTheDiameterUnknown() {
        // 2 forwards to 0 but no one forwards to 2
        List<int[]> oneWay = List.of(new int[]{1}, new int[]{0}, new int[]{0});

        MeshHops hops = MeshHops.of(oneWay, new int[]{0});

        assertThat(hops.diameter()).isEqualTo(-1);
        assertThat(hops.maxFromEntries()).isEqualTo(-1);
        assertThat(MeshHops.of(oneWay, new int[]{2}).maxFromEntries()).isEqualTo(2);
    }

    @Test
    void theWorseOfTwoSnapshotsTakesTheLongerPaths() {
        assertThat(new MeshHops(3, 2, 1.5).worse(new MeshHops(4, 1, 1.7))).isEqualTo(new MeshHops(4, 2, 1.7));
        assertThat(new MeshHops(3, 2, 1.5).worse(new MeshHops(-1, -1, 1.0)).diameter()).isEqualTo(-1);
    }
}
