package io.wakurelay.discovery.peers;

/**
 * Which discovery found a record offered to the {@link RecordSink}: nwaku's {@code PeerOrigin} name (the admin API's
 * {@code origin}), and our metric label.
 */
public enum Origin {
    DNS("Dns", "dns"),
    DISCV5("Discv5", "discv5"),
    PEER_EXCHANGE("PeerExchange", "peer_exchange");

    private final String nwakuName;
    private final String label;

    Origin(String nwakuName, String label) {
        this.nwakuName = nwakuName;
        this.label = label;
    }

    /** As nwaku's {@code /admin/v1/peers} writes it. */
    public String nwakuName() {
        return nwakuName;
    }

    /** The metric label value. */
    public String label() {
        return label;
    }
}
