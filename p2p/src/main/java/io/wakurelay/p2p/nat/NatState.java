package io.wakurelay.p2p.nat;

import java.util.Locale;

/** Where the port mapping stands; {@link NatMetrics} shows it as {@code libp2p_nat_state}. */
public enum NatState {
    /** not asked for ({@code --nat=none} or {@code extip:}), or stopped */
    OFF,
    /** no gateway answered, or none gave an external address: the bound address is announced (as nwaku) */
    UNAVAILABLE,
    /** the gateway gave its external address but refused some mapping: the external address is announced with the
     *  bound port of each port it did not map (nwaku's fallback: the operator may have forwarded it by hand) */
    EXTERNAL_ADDRESS_ONLY,
    /** every port is mapped */
    MAPPED;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
