package io.wakurelay.p2p;

import io.netty.channel.Channel;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ConnectionManagerTest {
    /** Two inbound slots, one kept for dials. */
    private final ConnectionManager manager = new ConnectionManager(HostConfig.builder().maxConnections(3)
            .reservedOutboundSlots(1).ipColocationLimit(2).build());
    private final List<EmbeddedChannel> channels = new ArrayList<>();

    @AfterEach
    void close() {
        channels.forEach(EmbeddedChannel::finishAndReleaseAll);
    }

    private Channel socket() {
        EmbeddedChannel c = new EmbeddedChannel();
        channels.add(c);
        return c;
    }

    private static InetAddress address(int last) throws Exception {
        return InetAddress.getByAddress(new byte[]{127, 0, 0, (byte) last});
    }

    private ConnectionManager.Admission open(Channel c, int from) throws Exception {
        return manager.openInbound(c, address(from));
    }

    @Test
    void aNewcomerTakesTheSlotOfTheSocketThatHasBeenHandshakingLongest() throws Exception {
        Channel oldest = socket();
        Channel younger = socket();
        open(oldest, 2);
        open(younger, 3);

        assertThat(open(socket(), 4)).isEqualTo(new ConnectionManager.Admission.Admitted(oldest));
        assertThat(open(socket(), 5)).isEqualTo(new ConnectionManager.Admission.Admitted(younger));
        assertThat(manager.sockets()).isEqualTo(2);
    }

    @Test
    void anUpgradedConnectionIsNeverEvictedForANewcomer() throws Exception {
        Channel established = socket();
        Channel handshaking = socket();
        open(established, 2);
        open(handshaking, 3);
        assertThat(manager.upgraded(established)).isTrue();

        assertThat(open(socket(), 4)).isEqualTo(new ConnectionManager.Admission.Admitted(handshaking));
        Channel alsoEstablished = channels.get(2);
        assertThat(manager.upgraded(alsoEstablished)).isTrue();
        assertThat(open(socket(), 5)).isEqualTo(new ConnectionManager.Admission.Refused(
                ConnectionManager.Refusal.TOO_MANY_CONNECTIONS));
    }

    @Test
    void anEvictedSocketThatClosesFreesNoSecondSlotAndCannotCompleteItsUpgrade() throws Exception {
        Channel evicted = socket();
        open(evicted, 2);
        open(socket(), 3);
        open(socket(), 4);

        manager.closedInbound(evicted);

        assertThat(manager.sockets()).isEqualTo(2);
        assertThat(manager.upgraded(evicted)).isFalse();
    }

    @Test
    void anAddressAtItsLimitEvictsNoOne() throws Exception {
        Channel first = socket();
        open(first, 2);
        open(socket(), 2);

        assertThat(open(socket(), 2)).isEqualTo(new ConnectionManager.Admission.Refused(
                ConnectionManager.Refusal.TOO_MANY_FROM_ADDRESS));
        assertThat(manager.upgraded(first)).isTrue();
    }

    @Test
    void inboundSocketsNeverTakeTheSlotsKeptForDials() throws Exception {
        open(socket(), 2);
        open(socket(), 3);
        open(socket(), 4);

        assertThat(manager.openOutbound()).isTrue();
        assertThat(manager.sockets()).isEqualTo(3);
    }
}
