package io.wakurelay.rln.chain;

import io.soabase.recordbuilder.core.RecordBuilder;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Where and how the membership roots are read (docs/rln.md, "Membership roots"). The node makes it from its RLN
 * settings ({@code RlnConfig.membershipRoots()}); {@link #DEFAULTS} holds nwaku's values, and the bounds of the
 * JSON-RPC calls, which nwaku leaves to its HTTP client.
 *
 * @param ethClientAddresses         JSON-RPC endpoints, tried in order ({@code --rln-relay-eth-client-address})
 * @param ethContractAddress         the membership contract, 0x and 40 hex digits; empty: not given (the start fails)
 * @param chainId                    the chain the contract is on; 0: the endpoint's, else the start fails when
 *                                   {@code eth_chainId} differs ({@code --rln-relay-chain-id})
 * @param rootWindow                 how many of the latest roots a proof may name (nwaku's 50)
 * @param pollInterval               a read of {@code root()} every this much (nwaku's 5 s), counted from the end of
 *                                   the last read
 * @param unknownRootRefreshInterval at most one extra read per this much, asked for when a message names a root not in
 *                                   the window
 * @param callTimeout                one JSON-RPC call: connecting, sending and the whole answer
 * @param maxResponseBytes           the largest JSON-RPC answer read; a longer one is a failed call
 * @param startAttempts              how often the start asks the endpoints for {@code eth_chainId} before it gives up
 *                                   (nwaku's retry wrapper: 15)
 * @param startRetryDelay            between those attempts (nwaku's 4 s)
 */
@RecordBuilder
public record MembershipRootsConfig(List<URI> ethClientAddresses, String ethContractAddress, long chainId,
                                    int rootWindow, Duration pollInterval, Duration unknownRootRefreshInterval,
                                    Duration callTimeout, int maxResponseBytes, int startAttempts,
                                    Duration startRetryDelay) {

    private static final Pattern ADDRESS = Pattern.compile("0x[0-9a-fA-F]{40}");

    /** nwaku's endpoint default and intervals, no contract; calls bounded to 5 s and 64 KiB. */
    public static final MembershipRootsConfig DEFAULTS = new MembershipRootsConfig(
            List.of(URI.create("http://localhost:8540/")), "", 0, 50, Duration.ofSeconds(5), Duration.ofSeconds(2),
            Duration.ofSeconds(5), 64 * 1024, 15, Duration.ofSeconds(4));

    public MembershipRootsConfig {
        ethClientAddresses = List.copyOf(Objects.requireNonNull(ethClientAddresses, "ethClientAddresses"));
        Objects.requireNonNull(ethContractAddress, "ethContractAddress");
        for (Duration d : List.of(pollInterval, unknownRootRefreshInterval, callTimeout, startRetryDelay)) {
            Objects.requireNonNull(d, "an interval");
            if (d.isNegative()) {
                throw new IllegalArgumentException("the membership roots' intervals must not be negative, was " + d);
            }
        }
        for (URI uri : ethClientAddresses) {
            String scheme = uri.getScheme();
            if (!"http".equalsIgnoreCase(scheme) && !"https".equalsIgnoreCase(scheme) || uri.getHost() == null) {
                throw new IllegalArgumentException("an eth client address must be an http(s) URL, was "
                        + Endpoints.describe(uri));
            }
        }
        if (!ethContractAddress.isEmpty() && !ADDRESS.matcher(ethContractAddress).matches()) {
            throw new IllegalArgumentException("the contract address must be 0x and 40 hex digits, was "
                    + ethContractAddress);
        }
        if (chainId < 0) {
            throw new IllegalArgumentException("chain id must be at least 0, was " + chainId);
        }
        if (rootWindow < 1 || rootWindow > 1000) {
            throw new IllegalArgumentException("root window must be in 1..1000, was " + rootWindow);
        }
        if (pollInterval.compareTo(Duration.ofMillis(100)) < 0) {
            throw new IllegalArgumentException("root poll interval must be at least 100ms, was " + pollInterval);
        }
        if (callTimeout.compareTo(Duration.ofMillis(10)) < 0) {
            throw new IllegalArgumentException("a JSON-RPC call's timeout must be at least 10ms, was " + callTimeout);
        }
        if (maxResponseBytes < 1024) {
            throw new IllegalArgumentException("a JSON-RPC answer must be allowed at least 1024 bytes, was "
                    + maxResponseBytes);
        }
        if (startAttempts < 1) {
            throw new IllegalArgumentException("start attempts must be at least 1, was " + startAttempts);
        }
    }

    public MembershipRootsConfigBuilder toBuilder() {
        return MembershipRootsConfigBuilder.builder(this);
    }

    public static MembershipRootsConfigBuilder builder() {
        return MembershipRootsConfigBuilder.builder(DEFAULTS);
    }
}
