package io.wakurelay.node.config;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * nwaku's options as keys of its config file and as its {@code WAKUNODE2_*} variables, for those this node has no
 * option for. Most only tune nwaku (its agent string, its metrics logging, its DNS name servers): the node starts
 * without them and says which it ignored. A few turn on something that changes what the node does to messages, to the
 * archive or to the network it joins (protected shards, store sync, mix): a node started without it would run, and
 * silently not be the node the operator configured, so such a key set to anything but off stops the start, named
 * with what it would have done. A key that is no nwaku option either ({@link Sorted#unknown()}) is a mistake. nwaku's
 * option names are listed in {@code nwaku-options.txt} beside this class, with where they come from.
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

    /** Every option name nwaku has or had (v0.30 on), without the dashes. */
    static final Set<String> ALL = load();

    /** Values that leave an option off, as nwaku's config files write them. */
    private static final Set<String> OFF = Set.of("", "false", "0", "no", "off", "none", "[]");

    /**
     * @param refused keys that would change what the node does, with what
     * @param ignored nwaku's other keys
     * @param unknown keys that are no nwaku option either
     */
    public record Sorted(List<String> refused, List<String> ignored, List<String> unknown) {
    }

    private NwakuConfigKeys() {
    }

    /** Whether {@code name} (without the dashes) is an option of nwaku's. */
    static boolean isNwakuOption(String name) {
        return ALL.contains(name);
    }

    /**
     * @param keys    keys this node has no option for
     * @param valueOf a key's value as the file or the environment has it
     */
    static Sorted sort(Iterable<String> keys, Function<String, String> valueOf) {
        List<String> refused = new ArrayList<>();
        List<String> ignored = new ArrayList<>();
        List<String> unknown = new ArrayList<>();
        for (String key : keys) {
            String what = FUNCTIONAL.get(key);
            if (what != null && !OFF.contains(String.valueOf(valueOf.apply(key)).trim().toLowerCase(Locale.ROOT))) {
                refused.add(key + " (" + what + ")");
            } else if (isNwakuOption(key)) {
                ignored.add(key);
            } else {
                unknown.add(key);
            }
        }
        return new Sorted(refused, ignored, unknown);
    }

    private static Set<String> load() {
        try (InputStream in = NwakuConfigKeys.class.getResourceAsStream("nwaku-options.txt")) {
            if (in == null) {
                throw new IllegalStateException("nwaku-options.txt is missing from the class path");
            }
            Set<String> names = new LinkedHashSet<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    names.add(line.strip());
                }
            }
            return Set.copyOf(names);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
