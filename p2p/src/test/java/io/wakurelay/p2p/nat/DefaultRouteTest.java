package io.wakurelay.p2p.nat;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DefaultRouteTest {
    private static final String HEADER = "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT";

    @Test
    void theGatewayOfTheDefaultRouteIsReadInLittleEndian() throws Exception {
        List<String> routes = List.of(HEADER,
                "eth0\t0000630A\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0",
                "eth0\t00000000\t0100630A\t0003\t0\t0\t0\t00000000\t0\t0\t0");
        assertThat(DefaultRoute.gateway(routes)).isEqualTo(InetAddress.getByName("10.99.0.1"));
    }

    @Test
    void withoutADefaultRouteThereIsNoGateway() {
        List<String> routes = List.of(HEADER, "eth0\t0000630A\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0");
        assertThatThrownBy(() -> DefaultRoute.gateway(routes)).isInstanceOf(NatException.class)
                .hasMessageContaining("no default IPv4 route");
    }
}
