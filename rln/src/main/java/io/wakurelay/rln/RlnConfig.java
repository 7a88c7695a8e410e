package io.wakurelay.rln;

import io.soabase.recordbuilder.core.RecordBuilder;
import io.wakurelay.rln.chain.MembershipRootsConfig;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * RLN relay (RFC 17, rln-v2) as nwaku runs it with {@code --rln-relay} and no membership credentials of its own: every
 * message on the relayed topics must carry a rate-limit proof that this node validates. Null in the node's config when
 * RLN is off. {@link #DEFAULTS} is the one source of every default (nwaku's where nwaku has the option).
 *
 * @param ethClientAddresses        JSON-RPC endpoints of the chain that holds the membership contract, tried in order
 *                                  ({@code --rln-relay-eth-client-address}, repeatable)
 * @param ethContractAddress        the membership contract ({@code --rln-relay-eth-contract-address}), 0x + 40 hex
 * @param chainId                   the chain the contract is on ({@code --rln-relay-chain-id}); 0: take what the
 *                                  endpoint says, else the start fails when {@code eth_chainId} differs
 * @param epochSizeSec              seconds per RLN epoch ({@code --rln-relay-epoch-sec})
 * @param userMessageLimit          messages per epoch of a membership this node would register
 *                                  ({@code --rln-relay-user-message-limit}); kept for nwaku's gauge, not a check
 * @param derivation                how the external nullifier is derived from epoch and rln identifier
 * @param maxTimestampGap           how far a message's timestamp may be from this node's clock (nwaku's 20 s)
 * @param rootWindow                how many of the latest membership roots a proof may name (nwaku's 50)
 * @param rootPollInterval          how often the roots are read from the chain (nwaku's 5 s)
 * @param unknownRootRefreshInterval at most one extra read per this interval, made when a message names a root not in
 *                                  the window
 * @param nullifiersPerEpoch        nullifiers remembered per epoch, and twice that over all epochs kept (32 bytes a
 *                                  slot: 16 MiB for a full epoch); past it a further valid message is dropped without
 *                                  penalty and counted. The Waku Network's contract caps all memberships together at 160,000
 *                                  messages per epoch, so 200,000 is never reached by honest traffic
 */
@RecordBuilder
public record RlnConfig(List<URI> ethClientAddresses, String ethContractAddress, long chainId, long epochSizeSec,
                        long userMessageLimit, NullifierDerivation derivation, Duration maxTimestampGap,
                        int rootWindow, Duration rootPollInterval, Duration unknownRootRefreshInterval,
                        int nullifiersPerEpoch) {

    /** The Waku rln identifier, the only one this node accepts in field 7 of a proof. */
    public static final String RLN_IDENTIFIER = "rln/waku-rln-relay/v2.0.0";

    private static final Pattern ADDRESS = Pattern.compile("0x[0-9a-fA-F]{40}");

    /** nwaku's defaults: its endpoint default, no contract (one must be given), epoch 1 s, limit 1. */
    public static final RlnConfig DEFAULTS = new RlnConfig(List.of(URI.create("http://localhost:8540/")), "", 0, 1, 1,
            NullifierDerivation.V038, Duration.ofSeconds(20), 50, Duration.ofSeconds(5), Duration.ofSeconds(2),
            200_000);

    /** How the external nullifier is derived (rln/README.md of the test data, and docs/rln.md). */
    public enum NullifierDerivation {
        /** Poseidon(H(epoch), H(rln_identifier)): nwaku v0.38.0 and later. */
        V038,
        /** Poseidon(epoch, rln_identifier), each read as a little-endian integer: nwaku up to v0.37.x. */
        LEGACY
    }

    public RlnConfig {
        ethClientAddresses = List.copyOf(Objects.requireNonNull(ethClientAddresses, "ethClientAddresses"));
        Objects.requireNonNull(ethContractAddress, "ethContractAddress");
        Objects.requireNonNull(derivation, "derivation");
        Objects.requireNonNull(maxTimestampGap, "maxTimestampGap");
        Objects.requireNonNull(rootPollInterval, "rootPollInterval");
        Objects.requireNonNull(unknownRootRefreshInterval, "unknownRootRefreshInterval");
        for (URI uri : ethClientAddresses) {
            String scheme = uri.getScheme();
            if (!"http".equalsIgnoreCase(scheme) && !"https".equalsIgnoreCase(scheme) || uri.getHost() == null) {
                throw new IllegalArgumentException("an eth client address must be an http(s) URL, was " + uri);
            }
        }
        if (!ethContractAddress.isEmpty() && !ADDRESS.matcher(ethContractAddress).matches()) {
            throw new IllegalArgumentException("the contract address must be 0x and 40 hex digits, was "
                    + ethContractAddress);
        }
        if (chainId < 0) {
            throw new IllegalArgumentException("chain id must be at least 0, was " + chainId);
        }
        if (epochSizeSec < 1) {
            throw new IllegalArgumentException("epoch size must be at least 1 s, was " + epochSizeSec);
        }
        if (userMessageLimit < 1) {
            throw new IllegalArgumentException("user message limit must be at least 1, was " + userMessageLimit);
        }
        if (maxTimestampGap.isNegative() || maxTimestampGap.isZero()) {
            throw new IllegalArgumentException("max timestamp gap must be positive, was " + maxTimestampGap);
        }
        if (rootWindow < 1 || rootWindow > 1000) {
            throw new IllegalArgumentException("root window must be in 1..1000, was " + rootWindow);
        }
        if (rootPollInterval.compareTo(Duration.ofMillis(100)) < 0) {
            throw new IllegalArgumentException("root poll interval must be at least 100ms, was " + rootPollInterval);
        }
        if (unknownRootRefreshInterval.isNegative()) {
            throw new IllegalArgumentException("unknown root refresh interval must not be negative, was "
                    + unknownRootRefreshInterval);
        }
        if (nullifiersPerEpoch < 1) {
            throw new IllegalArgumentException("nullifiers per epoch must be at least 1, was " + nullifiersPerEpoch);
        }
    }

    /**
     * Where and how {@code MembershipRoots} reads the roots: these settings, with the bounds of its JSON-RPC calls from
     * {@link MembershipRootsConfig#DEFAULTS}.
     */
    public MembershipRootsConfig membershipRoots() {
        return MembershipRootsConfig.builder()
                .ethClientAddresses(ethClientAddresses)
                .ethContractAddress(ethContractAddress)
                .chainId(chainId)
                .rootWindow(rootWindow)
                .pollInterval(rootPollInterval)
                .unknownRootRefreshInterval(unknownRootRefreshInterval)
                .build();
    }

    public RlnConfigBuilder toBuilder() {
        return RlnConfigBuilder.builder(this);
    }

    public static RlnConfigBuilder builder() {
        return RlnConfigBuilder.builder(DEFAULTS);
    }
}
