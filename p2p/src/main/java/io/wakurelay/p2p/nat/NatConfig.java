package io.wakurelay.p2p.nat;

import io.soabase.recordbuilder.core.RecordBuilder;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * How the port mapping at the gateway is asked for (nwaku's {@code --nat=any|upnp|pmp}) and the bounds of every
 * exchange with the gateway, which is a device on the local network and is not trusted further than these bounds.
 * Validated when built; {@link #DEFAULTS} is the one source of every default. The lease, lifetime and renewal are
 * nim-eth's, which nwaku maps ports with (its {@code eth/net/nat.nim}).
 *
 * @param method          which protocols are tried: UPnP IGD, NAT-PMP, or UPnP and then NAT-PMP ({@code any})
 * @param description     the mappings' description at a UPnP gateway (shown by its web page and {@code upnpc -l})
 * @param ssdpWait        how long, in all, the answers to the SSDP M-SEARCH are waited for
 * @param ssdpAttempts    how many times the M-SEARCH is sent within {@code ssdpWait} (UDP may lose it)
 * @param httpTimeout     each HTTP exchange with a UPnP gateway, from connect to its last byte
 * @param maxResponseBytes the largest device description or SOAP answer read; a larger one is a failure
 * @param pmpFirstTimeout NAT-PMP's first wait for an answer (RFC 6886: 250 ms), doubled at each resend
 * @param pmpAttempts     how many times a NAT-PMP request is sent (RFC 6886 allows 9, about 2 minutes in all)
 * @param upnpLease       the lease asked of a UPnP gateway; 0 is nim-eth's (no expiry; an IGD:2 gateway makes it
 *                        its longest, a week), so that the mapping survives between renewals
 * @param pmpLifetime     the lifetime asked of a NAT-PMP gateway (nim-eth's hour)
 * @param renewInterval   how often every mapping is asked for again (nim-eth's 20 minutes), so that a gateway that
 *                        restarted or let a lease expire has it back
 */
@RecordBuilder
public record NatConfig(Method method, String description, Duration ssdpWait, int ssdpAttempts, Duration httpTimeout,
                        int maxResponseBytes, Duration pmpFirstTimeout, int pmpAttempts, Duration upnpLease,
                        Duration pmpLifetime, Duration renewInterval) {

    /** The protocols {@code --nat} names. */
    public enum Method {
        /** UPnP IGD, and NAT-PMP when no UPnP gateway gives an external address (nim-eth's order) */
        ANY,
        /** UPnP IGD only */
        UPNP,
        /** NAT-PMP only (RFC 6886) */
        PMP;

        /** The method by its {@code --nat} name ({@code any}, {@code upnp}, {@code pmp}), any case. */
        public static Method of(String name) {
            return valueOf(name.strip().toUpperCase(Locale.ROOT));
        }

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public static final NatConfig DEFAULTS = new NatConfig(Method.ANY, "wakurelay", Duration.ofSeconds(2), 2,
            Duration.ofSeconds(5), 64 * 1024, Duration.ofMillis(250), 4, Duration.ZERO, Duration.ofHours(1),
            Duration.ofMinutes(20));

    public NatConfig {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(description, "description");
        if (description.isBlank() || description.length() > 64) {
            throw new IllegalArgumentException("the mapping's description must be 1..64 characters, was '"
                    + description + "'");
        }
        positive(ssdpWait, "ssdpWait");
        positive(httpTimeout, "httpTimeout");
        positive(pmpFirstTimeout, "pmpFirstTimeout");
        positive(pmpLifetime, "pmpLifetime");
        positive(renewInterval, "renewInterval");
        if (upnpLease == null || upnpLease.isNegative() || upnpLease.toSeconds() > 0xffff_ffffL) {
            throw new IllegalArgumentException("upnpLease must be 0..2^32-1 s, was " + upnpLease);
        }
        if (ssdpAttempts < 1 || ssdpAttempts > 5) {
            throw new IllegalArgumentException("ssdpAttempts must be 1..5, was " + ssdpAttempts);
        }
        if (pmpAttempts < 1 || pmpAttempts > 9) {
            throw new IllegalArgumentException("pmpAttempts must be 1..9 (RFC 6886), was " + pmpAttempts);
        }
        if (maxResponseBytes < 1024 || maxResponseBytes > 1024 * 1024) {
            throw new IllegalArgumentException("maxResponseBytes must be 1 KiB..1 MiB, was " + maxResponseBytes);
        }
        if (pmpLifetime.compareTo(renewInterval) <= 0) {
            throw new IllegalArgumentException("pmpLifetime (" + pmpLifetime + ") must be longer than renewInterval ("
                    + renewInterval + "), or a NAT-PMP mapping lapses between renewals");
        }
    }

    private static void positive(Duration d, String name) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, was " + d);
        }
    }

    public static NatConfigBuilder builder() {
        return DEFAULTS.toBuilder();
    }

    public NatConfigBuilder toBuilder() {
        return NatConfigBuilder.builder(this);
    }
}
