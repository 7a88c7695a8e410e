package io.wakurelay.node.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The keys of an nwaku config file that this node has no option for. Most only tune nwaku (its peer store's size,
 * its keep-alive, its NAT mapping): the node starts without them and says which it ignored. A few turn on something
 * that changes what the node does to messages, to the archive or to the network it joins (RLN, protected shards,
 * a network preset, store sync): a node started without it would run, and silently not be the node the operator
 * configured, so such a key set to anything but off stops the start, named with what it would have done. (RLN and the
 * preset are options of this node: their keys are read as any other.)
 */
public final class NwakuConfigKeys {
    /** nwaku's options (tools/confutils/cli_args.nim) that change what its node does, with what they do. */
    static final Map<String, String> FUNCTIONAL;

    static {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("protected-shard", "signed messages on protected shards");
        m.put("store-sync", "store synchronisation with other store nodes");
        m.put("store-resume", "filling the archive from other store nodes at start");
        m.put("legacy-store", "the legacy Store protocol");
        m.put("mix", "the mix protocol");
        m.put("execute", "a one-off command instead of a node");
        m.put("relay-peer-exchange", "gossipsub's peer exchange on PRUNE");
        m.put("peer-persistence", "a peer store kept across restarts");
        FUNCTIONAL = Map.copyOf(m);
    }

    /** Values that leave an option off, as nwaku's config files write them. */
    private static final Set<String> OFF = Set.of("", "false", "0", "no", "off", "none", "[]");

    /** @param refused keys that would change what the node does, with what; {@code ignored} the others */
    public record Sorted(List<String> refused, List<String> ignored) {
    }

    private NwakuConfigKeys() {
    }

    /** @param valueOf a key's value as the file has it */
    static Sorted sort(Iterable<String> unknownKeys, Function<String, String> valueOf) {
        List<String> refused = new ArrayList<>();
        List<String> ignored = new ArrayList<>();
        for (String key : unknownKeys) {
            String what = FUNCTIONAL.get(key);
            if (what != null && !OFF.contains(String.valueOf(valueOf.apply(key)).trim().toLowerCase(Locale.ROOT))) {
                refused.add(key + " (" + what + ")");
            } else {
                ignored.add(key);
            }
        }
        return new Sorted(refused, ignored);
    }
}
