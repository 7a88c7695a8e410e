package io.wakurelay.node.config;

/**
 * nwaku's {@code --relay-service-ratio}: of {@code --max-connections}, the share kept for relay peers and the share
 * for service peers (those that only use store, filter, lightpush or peer exchange), in percent, summing to 100.
 */
public record RelayServiceRatio(double relayPercent, double servicePercent) {
    public static final RelayServiceRatio DEFAULTS = new RelayServiceRatio(60, 40);

    public RelayServiceRatio {
        if (relayPercent < 0 || servicePercent < 0 || Double.isNaN(relayPercent) || Double.isNaN(servicePercent)) {
            throw new IllegalArgumentException("the relay and service shares must not be negative, were "
                    + relayPercent + ":" + servicePercent);
        }
        if ((int) (relayPercent + servicePercent) != 100) { // nwaku's check: int(total) == 100
            throw new IllegalArgumentException("the relay and service shares must sum to 100, were "
                    + relayPercent + ":" + servicePercent);
        }
    }

    /** Parses nwaku's {@code X:Y}, e.g. {@code 60:40}. */
    public static RelayServiceRatio parse(String text) {
        String[] parts = text.strip().split(":", -1);
        if (parts.length != 2) {
            throw new IllegalArgumentException("expected RELAY:SERVICE such as 60:40, was " + text);
        }
        try {
            return new RelayServiceRatio(Double.parseDouble(parts[0].strip()), Double.parseDouble(parts[1].strip()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("expected two numbers RELAY:SERVICE such as 60:40, was " + text, e);
        }
    }

    /** The relay peers of {@code maxConnections}: rounded up, as nwaku does. */
    public int relayPeers(int maxConnections) {
        return (int) Math.ceil(maxConnections * relayPercent / 100.0);
    }

    /** The service peers of {@code maxConnections}: rounded down, as nwaku does. */
    public int servicePeers(int maxConnections) {
        return (int) Math.floor(maxConnections * servicePercent / 100.0);
    }

    /** As the option writes it. */
    public String format() {
        return number(relayPercent) + ":" + number(servicePercent);
    }

    private static String number(double d) {
        return d == Math.rint(d) ? String.valueOf((long) d) : String.valueOf(d);
    }
}
