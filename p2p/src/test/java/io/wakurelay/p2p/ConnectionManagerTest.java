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
    void aNewcomerFindingOnlyUpgradedConnectionsIsToldTheSlotsAreFullForTheTrimmerToChoose() throws Exception {
        Channel established = socket();
        Channel handshaking = socket();
        open(established, 2);
        open(handshaking, 3);
        assertThat(manager.upgraded(established)).isTrue();

        assertThat(open(socket(), 4)).isEqualTo(new ConnectionManager.Admission.Admitted(handshaking));
        Channel alsoEstablished = channels.get(2);
        assertThat(manager.upgraded(alsoEstablished)).isTrue();
        assertThat(open(socket(), 5)).isEqualTo(new ConnectionManager.Admission.Full());
        assertThat(manager.sockets()).isEqualTo(2);
    }

    @Test
    void oneSubnetMayHoldOnlyItsShareOfInboundSockets() throws Exception {
        ConnectionManager m = new ConnectionManager(HostConfig.builder().maxConnections(20).reservedOutboundSlots(1)
                .ipColocationLimit(5).subnetColocationLimit(3).build());
        for (int i = 1; i <= 3; i++) {
            assertThat(m.openInbound(socket(), InetAddress.getByName("10.1.2." + i)))
                    .isInstanceOf(ConnectionManager.Admission.Admitted.class);
        }
        Channel fourth = socket();
        assertThat(m.openInbound(fourth, InetAddress.getByName("10.1.2.200"))).isEqualTo(
                new ConnectionManager.Admission.Refused(ConnectionManager.Refusal.TOO_MANY_FROM_SUBNET));
        assertThat(m.openInbound(socket(), InetAddress.getByName("10.1.3.1")))
                .as("the next /24").isInstanceOf(ConnectionManager.Admission.Admitted.class);
        for (int i = 1; i <= 3; i++) {
            assertThat(m.openInbound(socket(), InetAddress.getByName("2001:db8:0:1::" + i)))
                    .isInstanceOf(ConnectionManager.Admission.Admitted.class);
        }
        assertThat(m.openInbound(socket(), InetAddress.getByName("2001:db8:0:1:ffff::9"))).as("the same /64")
                .isEqualTo(new ConnectionManager.Admission.Refused(ConnectionManager.Refusal.TOO_MANY_FROM_SUBNET));
        assertThat(m.openInbound(socket(), InetAddress.getByName("2001:db8:0:2::1"))).as("the next /64")
                .isInstanceOf(ConnectionManager.Admission.Admitted.class);

        m.closedInbound(channels.get(0));
        assertThat(m.openInbound(fourth, InetAddress.getByName("10.1.2.200"))).as("a slot of the /24 given back")
                .isInstanceOf(ConnectionManager.Admission.Admitted.class);
    }

    @Test
    void loopbackAddressesAreExemptFromTheSubnetLimit() throws Exception {
        ConnectionManager m = new ConnectionManager(HostConfig.builder().maxConnections(20).reservedOutboundSlots(1)
                .ipColocationLimit(5).subnetColocationLimit(1).build());
        for (int i = 1; i <= 4; i++) {
            assertThat(m.openInbound(socket(), address(i))).isInstanceOf(ConnectionManager.Admission.Admitted.class);
        }
        assertThat(ConnectionManager.subnet(InetAddress.getByName("::1"))).isNull();
        assertThat(ConnectionManager.subnet(InetAddress.getByName("10.0.0.1")))
                .isNotEqualTo(ConnectionManager.subnet(InetAddress.getByName("0:a00::1")));
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
