package io.wakurelay.node.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * A network preset, as nwaku's {@code NetworkConf} ({@code waku/factory/networks_config.nim}): the values a network's
 * nodes must share. {@code --preset twn}, or {@code --cluster-id 1} (nwaku's {@code toNetworkConf}), selects
 * {@link #TWN}, The Waku Network; {@link #applyTo} then sets its values over those of the individual options, as nwaku's
 * {@code applyNetworkConf}, and names each value it discards in nwaku's words.
 *
 * @param name                 the preset's name for {@code --preset}
 * @param clusterId            the network's cluster
 * @param numShardsInNetwork   automatic sharding over this many shards
 * @param maxMessageSize       the network's largest message, as {@code --max-msg-size} writes it
 * @param rlnRelay             whether the network's messages carry RLN proofs
 * @param rlnContractAddress   the RLN membership contract
 * @param rlnChainId           the chain the contract is on
 * @param rlnEpochSec          RLN's epoch
 * @param rlnUserMessageLimit  messages per epoch of a membership
 * @param discv5BootstrapNodes discv5's bootstrap records, added to those given
 */
public record NetworkPreset(String name, int clusterId, int numShardsInNetwork, String maxMessageSize, boolean rlnRelay,
                            String rlnContractAddress, long rlnChainId, long rlnEpochSec, long rlnUserMessageLimit,
                            List<String> discv5BootstrapNodes) {

    /** The Waku Network, cluster 1: nwaku's {@code TheWakuNetworkConf}. */
    public static final NetworkPreset TWN = new NetworkPreset("twn", 1, 8, "150KiB", true,
            "0xB9cd878C90E49F797B4431fBF4fb333108CB90e6", 59141, 600, 100, List.of(
                    "enr:-QESuED0qW1BCmF-oH_ARGPr97Nv767bl_43uoy70vrbah3EaCAdK3Q0iRQ6wkSTTpdrg_dU_NC2ydO8leSlRpBX4pxiAYJpZIJ2NIJpcIRA4VDAim11bHRpYWRkcnO4XAArNiZub2RlLTAxLmRvLWFtczMud2FrdS5zYW5kYm94LnN0YXR1cy5pbQZ2XwAtNiZub2RlLTAxLmRvLWFtczMud2FrdS5zYW5kYm94LnN0YXR1cy5pbQYfQN4DgnJzkwABCAAAAAEAAgADAAQABQAGAAeJc2VjcDI1NmsxoQOTd-h5owwj-cx7xrmbvQKU8CV3Fomfdvcv1MBc-67T5oN0Y3CCdl-DdWRwgiMohXdha3UyDw",
                    "enr:-QEkuED9X80QF_jcN9gA2ZRhhmwVEeJnsg_Hyg7IFCTYnZD0BDI7a8HArE61NhJZFwygpHCWkgwSt2vqiABXkBxzIqZBAYJpZIJ2NIJpcIQiQlleim11bHRpYWRkcnO4bgA0Ni9ub2RlLTAxLmdjLXVzLWNlbnRyYWwxLWEud2FrdS5zYW5kYm94LnN0YXR1cy5pbQZ2XwA2Ni9ub2RlLTAxLmdjLXVzLWNlbnRyYWwxLWEud2FrdS5zYW5kYm94LnN0YXR1cy5pbQYfQN4DgnJzkwABCAAAAAEAAgADAAQABQAGAAeJc2VjcDI1NmsxoQPFAS8zz2cg1QQhxMaK8CzkGQ5wdHvPJcrgLzJGOiHpwYN0Y3CCdl-DdWRwgiMohXdha3UyDw",
                    "enr:-QEkuEBfEzJm_kigJ2HoSS_RBFJYhKHocGdkhhBr6jSUAWjLdFPp6Pj1l4yiTQp7TGHyu1kC6FyaU573VN8klLsEm-XuAYJpZIJ2NIJpcIQI2SVcim11bHRpYWRkcnO4bgA0Ni9ub2RlLTAxLmFjLWNuLWhvbmdrb25nLWMud2FrdS5zYW5kYm94LnN0YXR1cy5pbQZ2XwA2Ni9ub2RlLTAxLmFjLWNuLWhvbmdrb25nLWMud2FrdS5zYW5kYm94LnN0YXR1cy5pbQYfQN4DgnJzkwABCAAAAAEAAgADAAQABQAGAAeJc2VjcDI1NmsxoQOwsS69tgD7u1K50r5-qG5hweuTwa0W26aYPnvivpNlrYN0Y3CCdl-DdWRwgiMohXdha3UyDw"));

    public NetworkPreset {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(maxMessageSize, "maxMessageSize");
        Objects.requireNonNull(rlnContractAddress, "rlnContractAddress");
        discv5BootstrapNodes = List.copyOf(discv5BootstrapNodes);
    }

    /**
     * The preset the options select, as nwaku's {@code toNetworkConf}: {@code --preset} (any case), or {@link #TWN}
     * for cluster 1, which nwaku warns will need {@code --preset=twn} in future releases.
     *
     * @return null when none is selected
     * @throws IllegalArgumentException for a preset name that is not one
     */
    static NetworkPreset select(String preset, int clusterId, Consumer<String> warnings) {
        String name = preset == null ? "" : preset.strip().toLowerCase(Locale.ROOT);
        if (clusterId == TWN.clusterId && name.isEmpty()) {
            warnings.accept("TWN - The Waku Network configuration will not be applied when `--cluster-id=1` is passed "
                    + "in future releases. Use `--preset=twn` instead.");
            name = TWN.name;
        }
        if (name.isEmpty()) {
            return null;
        }
        if (name.equals(TWN.name)) {
            return TWN;
        }
        throw new IllegalArgumentException("--preset: Invalid --preset value passed: " + name + " (the preset there is: "
                + TWN.name + ")");
    }

    /**
     * Sets the preset's values on {@code o}, over those of the individual options, as nwaku's {@code applyNetworkConf}:
     * the RLN values only when the node relays; discv5 on unless {@code --discv5-discovery} was given, with the
     * preset's bootstrap records added to those given. A value given and discarded is named in a warning, in nwaku's
     * words; a value given equal to the preset's is not discarded, so not warned about.
     *
     * @param given whether an option was given (command line, environment or config file)
     */
    void applyTo(NodeOptions o, Predicate<String> given, Consumer<String> warnings) {
        Discards discards = new Discards(given, warnings);
        discards.check("--cluster-id", "Cluster id was provided alongside a network conf", clusterId, o.network.clusterId);
        o.network.clusterId = clusterId;
        if (o.edge.relay && rlnRelay) {
            RlnOptions rln = o.rln;
            discards.check("--rln-relay", "RLN Relay was provided alongside a network conf", true, rln.rlnRelay);
            rln.rlnRelay = true;
            discards.check("--rln-relay-eth-contract-address",
                    "RLN Relay ETH Contract Address was provided alongside a network conf", rlnContractAddress,
                    rlnContractAddress.equalsIgnoreCase(strip(rln.ethContractAddress)) ? rlnContractAddress
                            : strip(rln.ethContractAddress));
            rln.ethContractAddress = rlnContractAddress;
            discards.check("--rln-relay-chain-id", "RLN Relay Chain Id was provided alongside a network conf",
                    rlnChainId, rln.chainId);
            rln.chainId = rlnChainId;
            discards.check("--rln-relay-dynamic", "RLN Relay Dynamic was provided alongside a network conf", true,
                    rln.dynamic);
            rln.dynamic = true;
            discards.check("--rln-relay-epoch-sec", "RLN Epoch Size in Seconds was provided alongside a network conf",
                    rlnEpochSec, rln.epochSec);
            rln.epochSec = rlnEpochSec;
            // nwaku's text here repeats "RLN Relay Dynamic" by mistake; the value is the user message limit
            discards.check("--rln-relay-user-message-limit",
                    "RLN Relay User Message Limit was provided alongside a network conf", rlnUserMessageLimit,
                    rln.userMessageLimit);
            rln.userMessageLimit = rlnUserMessageLimit;
        }
        Object givenSize = sameSize(o.network.maxMessageSize) ? maxMessageSize : o.network.maxMessageSize;
        discards.check("--max-msg-size", "Max Message Size was provided alongside a network conf", maxMessageSize,
                givenSize);
        o.network.maxMessageSize = maxMessageSize;
        if (o.network.numShardsInNetwork == 0) {
            discards.check("--num-shards-in-network", "Sharding Conf was provided alongside a network conf",
                    "AutoSharding", "StaticSharding");
        } else {
            discards.check("--num-shards-in-network", "Num Shards In Cluster was provided alongside a network conf",
                    numShardsInNetwork, o.network.numShardsInNetwork);
        }
        o.network.numShardsInNetwork = numShardsInNetwork;
        if (!given.test("--discv5-discovery")) {
            o.discv5.discv5Discovery = true;
        }
        List<String> bootstrap = new ArrayList<>(o.discv5.discv5BootstrapNodes);
        for (String enr : discv5BootstrapNodes) {
            if (!bootstrap.contains(enr)) {
                bootstrap.add(enr);
            }
        }
        o.discv5.discv5BootstrapNodes = bootstrap;
    }

    private static String strip(String s) {
        return s == null ? "" : s.strip();
    }

    private boolean sameSize(String text) {
        try {
            return text != null && ByteSize.parse(text) == ByteSize.parse(maxMessageSize);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** Warns, in nwaku's words, of a given value the preset replaces. */
    private record Discards(Predicate<String> given, Consumer<String> warnings) {
        void check(String option, String text, Object used, Object discarded) {
            if (given.test(option) && !String.valueOf(used).equals(String.valueOf(discarded))) {
                warnings.accept(text + ": used=" + used + " discarded=" + discarded + " (" + option + ")");
            }
        }
    }
}
