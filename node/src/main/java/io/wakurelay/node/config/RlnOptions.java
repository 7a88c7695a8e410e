package io.wakurelay.node.config;

import io.wakurelay.rln.RlnConfig;
import io.wakurelay.rln.RlnConfigBuilder;
import picocli.CommandLine;
import picocli.CommandLine.Option;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * RLN relay's options (nwaku's names), a picocli mixin of {@link NodeOptions}, built into {@link RlnConfig}: this node
 * validates the rate-limit proofs of what it relays as nwaku does with {@code --rln-relay} and no membership
 * credentials of its own. nwaku's credential options are accepted, and a warning says they are not used. The one
 * setting nwaku does not have is {@code --rln-relay-nullifier-derivation} (nwaku 0.38's or 0.37's external nullifier).
 */
public final class RlnOptions {
    /** The credential options nwaku takes to publish with proofs of its own; this node has no use for them. */
    static final List<String> CREDENTIAL_OPTIONS = List.of("--rln-relay-cred-path", "--rln-relay-cred-password",
            "--rln-relay-membership-index", "--rln-relay-eth-private-key");

    @Option(names = "--rln-relay", paramLabel = "BOOL", arity = "0..1", fallbackValue = "true",
            showDefaultValue = CommandLine.Help.Visibility.ALWAYS,
            description = "validate the RLN proof (RFC 17, rln-v2) of every relayed message, as nwaku with --rln-relay and "
                    + "no credentials: a message without a valid proof is rejected, never relayed or archived; needs the "
                    + "three options below (--preset twn gives the contract and the chain)")
    boolean rlnRelay;

    @Option(names = "--rln-relay-eth-client-address", paramLabel = "URL", split = ",",
            description = "JSON-RPC endpoint (http or https) of the chain that holds the membership contract, read for "
                    + "its roots; the next one is tried when one fails (repeatable); --preset twn (or --cluster-id 1) "
                    + "needs it given, the default is not assumed then")
    List<String> ethClientAddresses = new ArrayList<>();

    @Option(names = "--rln-relay-eth-contract-address", paramLabel = "ADDRESS",
            description = "the RLN membership contract, 0x and 40 hex digits")
    String ethContractAddress;

    @Option(names = "--rln-relay-chain-id", paramLabel = "N",
            description = "chain id of the contract's chain; the start fails when the endpoint reports another")
    long chainId;

    @Option(names = "--rln-relay-epoch-sec", paramLabel = "SECONDS",
            description = "seconds per RLN epoch: a membership may send its message limit per epoch")
    long epochSec;

    @Option(names = "--rln-relay-user-message-limit", paramLabel = "N",
            description = "messages per epoch of a membership, as nwaku's registration takes it (this node registers "
                    + "none: it is reported as nwaku reports it, not checked)")
    long userMessageLimit;

    @Option(names = "--rln-relay-dynamic", paramLabel = "BOOL", arity = "0..1", fallbackValue = "true",
            showDefaultValue = CommandLine.Help.Visibility.ALWAYS,
            description = "accepted as nwaku's flag; the membership is always read from the contract, as in nwaku, "
                    + "which no longer has static groups")
    boolean dynamic;

    @Option(names = "--rln-relay-cred-path", paramLabel = "FILE",
            description = "nwaku's keystore of membership credentials: accepted and not used (a warning says so), this "
                    + "node validates without credentials of its own; needs --rln-relay-cred-password, as in nwaku")
    String credPath;

    @Option(names = "--rln-relay-cred-password", paramLabel = "PASSWORD",
            description = "the keystore's password: accepted and not used, as --rln-relay-cred-path")
    String credPassword;

    @Option(names = "--rln-relay-membership-index", paramLabel = "N",
            description = "the keystore's membership to use: accepted and not used, as --rln-relay-cred-path")
    Long membershipIndex;

    @Option(names = "--rln-relay-eth-private-key", paramLabel = "KEY",
            description = "nwaku's key for registering memberships: accepted and not used, as --rln-relay-cred-path")
    String ethPrivateKey;

    @Option(names = "--rln-relay-nullifier-derivation", paramLabel = "DERIVATION",
            description = "how a proof's external nullifier derives from its epoch and the rln identifier: v038 (nwaku "
                    + "0.38 and later, js-waku's current) or legacy (nwaku 0.37 and earlier); proofs made the other way "
                    + "are rejected (docs/rln.md)")
    String nullifierDerivation;

    /**
     * RLN's config; null when RLN is off. The credential options are named in a warning when given, whether RLN is on
     * or not; the combinations nwaku refuses are refused with nwaku's reason.
     *
     * @param relay    {@code --relay}: RLN validates what the relay relays, so it needs the relay (as in nwaku)
     * @param preset   whether The Waku Network's preset turned RLN on (its endpoint must then be given)
     * @param given    whether an option was given (command line, environment or config file)
     * @param warnings told of the options accepted and not used
     */
    RlnConfig config(boolean relay, boolean preset, Predicate<String> given, Consumer<String> warnings) {
        List<String> unused = new ArrayList<>();
        for (String option : CREDENTIAL_OPTIONS) {
            if (given.test(option) && !blank(value(option))) {
                unused.add(option);
            }
        }
        if (!unused.isEmpty()) {
            warnings.accept(String.join(", ", unused) + " accepted and not used: this node validates RLN proofs "
                    + "without membership credentials of its own, and publishes nothing that needs one");
        }
        if (!rlnRelay) {
            return null;
        }
        if (!relay) {
            throw new IllegalArgumentException("--rln-relay needs --relay=true (nwaku: WakuRelay protocol is not "
                    + "mounted, cannot mount WakuRlnRelay)");
        }
        // nwaku's RlnRelayConfBuilder refuses half a keystore, used or not
        if (!blank(credPath) && blank(credPassword)) {
            throw new IllegalArgumentException("--rln-relay-cred-path needs --rln-relay-cred-password (nwaku: RLN Relay "
                    + "Credential Password is not specified but path is)");
        }
        if (blank(credPath) && !blank(credPassword)) {
            throw new IllegalArgumentException("--rln-relay-cred-password needs --rln-relay-cred-path (nwaku: RLN Relay "
                    + "Credential Path is not specified but password is)");
        }
        if (preset && !given.test("--rln-relay-eth-client-address")) {
            throw new IllegalArgumentException("The Waku Network validates RLN proofs against its membership contract "
                    + "on chain " + chainId + ": give that chain's JSON-RPC endpoint with "
                    + "--rln-relay-eth-client-address=<http(s) URL>");
        }
        if (blank(ethContractAddress)) {
            throw new IllegalArgumentException("--rln-relay needs --rln-relay-eth-contract-address (nwaku: "
                    + "rlnRelay.ethContractAddress is not specified)");
        }
        if (chainId == 0) {
            throw new IllegalArgumentException("--rln-relay needs --rln-relay-chain-id (nwaku: RLN Relay Chain Id is not "
                    + "specified)");
        }
        if (given.test("--rln-relay-dynamic") && !dynamic) {
            warnings.accept("--rln-relay-dynamic=false is ignored: the membership is always read from the contract, "
                    + "as in nwaku, which no longer has static groups");
        }
        RlnConfigBuilder rln = RlnConfig.DEFAULTS.toBuilder();
        set("--rln-relay-eth-client-address", rln, b -> b.ethClientAddresses(endpoints()));
        set("--rln-relay-eth-contract-address", rln, b -> b.ethContractAddress(ethContractAddress.strip()));
        set("--rln-relay-chain-id", rln, b -> b.chainId(chainId));
        set("--rln-relay-epoch-sec", rln, b -> b.epochSizeSec(epochSec));
        set("--rln-relay-user-message-limit", rln, b -> b.userMessageLimit(userMessageLimit));
        set("--rln-relay-nullifier-derivation", rln, b -> b.derivation(derivation()));
        return rln.build();
    }

    /** Sets one value on {@code into}, checked alone first, so that the record's complaint names its option. */
    private static void set(String option, RlnConfigBuilder into, UnaryOperator<RlnConfigBuilder> field) {
        NodeOptions.option(option, () -> field.apply(RlnConfig.DEFAULTS.toBuilder()).build());
        field.apply(into);
    }

    private List<URI> endpoints() {
        List<URI> uris = new ArrayList<>();
        for (String s : ethClientAddresses) {
            if (blank(s)) {
                continue;
            }
            String text = s.strip();
            String lower = text.toLowerCase(Locale.ROOT);
            if (lower.startsWith("ws://") || lower.startsWith("wss://")) {
                throw new IllegalArgumentException("Websocket RPC URL is not supported, Please use an HTTP URL (nwaku's "
                        + "words), was " + text);
            }
            uris.add(URI.create(text));
        }
        if (uris.isEmpty()) {
            throw new IllegalArgumentException("rlnRelay.ethClientUrls is not specified (nwaku's words): give an http(s) "
                    + "URL");
        }
        return uris;
    }

    private RlnConfig.NullifierDerivation derivation() {
        return switch (nullifierDerivation.strip().toLowerCase(Locale.ROOT)) {
            case "v038" -> RlnConfig.NullifierDerivation.V038;
            case "legacy" -> RlnConfig.NullifierDerivation.LEGACY;
            default -> throw new IllegalArgumentException("must be v038 (nwaku 0.38 and later) or legacy (nwaku 0.37 "
                    + "and earlier), was '" + nullifierDerivation + "'");
        };
    }

    private String value(String option) {
        return switch (option) {
            case "--rln-relay-cred-path" -> credPath;
            case "--rln-relay-cred-password" -> credPassword;
            case "--rln-relay-membership-index" -> membershipIndex == null ? null : membershipIndex.toString();
            case "--rln-relay-eth-private-key" -> ethPrivateKey;
            default -> throw new IllegalArgumentException(option);
        };
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }

    /** The default of the derivation, as the option writes it. */
    static String derivationName(RlnConfig.NullifierDerivation derivation) {
        return derivation.name().toLowerCase(Locale.ROOT);
    }
}
