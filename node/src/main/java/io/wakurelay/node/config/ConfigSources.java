package io.wakurelay.node.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * Defaults for command-line options from the environment and an optional TOML config file, with nwaku's precedence
 * (docs/adr/0091): a flag on the command line beats both, the environment beats the file, and the built-in defaults
 * of {@link OptionDefaults} come last.
 *
 * <p>For an option {@code --tcp-port} the environment variables are {@code WAKURELAY_TCP_PORT} and, for the options
 * nwaku has too, nwaku's {@code WAKUNODE2_TCP_PORT} (the first wins when both are set); the config file key is
 * {@code tcp-port}. Repeatable options take a TOML array or a comma-separated string.
 */
public final class ConfigSources implements CommandLine.IDefaultValueProvider {
    public static final String ENV_PREFIX = "WAKURELAY_";
    /** nwaku's prefix: its binary's name, as nim-confutils forms it. */
    public static final String NWAKU_ENV_PREFIX = "WAKUNODE2_";
    /** {@code WAKURELAY_} variables that are no options: the PostgreSQL password, and the deploy files' own. */
    static final Set<String> NOT_OPTIONS = Set.of(StoreLocation.PASSWORD_VARIABLE, "WAKURELAY_JAVA_OPTS",
            "WAKURELAY_IMAGE", "WAKURELAY_BIND", "WAKURELAY_RETENTION", "WAKURELAY_WEBSOCKET",
            "WAKURELAY_DB_CONNECTIONS", "WAKURELAY_COMMIT");

    private static final java.util.regex.Pattern OPTION = java.util.regex.Pattern.compile("--[a-z0-9]+(-[a-z0-9]+)*");

    private final Map<String, String> environment;
    private final Map<String, String> file;
    private final Path filePath;

    /**
     * Where an option's value came from, for messages.
     *
     * @param where e.g. {@code environment variable WAKUNODE2_TCP_PORT} or {@code config file node.toml}
     */
    public record Origin(String where, String value) {
    }

    private ConfigSources(Map<String, String> environment, Map<String, String> file, Path filePath) {
        this.environment = environment;
        this.file = file;
        this.filePath = filePath;
    }

    /**
     * @param configFile the file named by --config-file (or WAKURELAY_CONFIG_FILE, WAKUNODE2_CONFIG_FILE), or null
     * @throws IllegalArgumentException when the file cannot be read or is not TOML of simple values
     */
    public static ConfigSources of(Map<String, String> environment, Path configFile) {
        return new ConfigSources(environment, configFile == null ? Map.of() : readToml(configFile), configFile);
    }

    /** Only the built-in defaults (for {@code --help} and tests that must not see this process's environment). */
    public static ConfigSources builtIn() {
        return new ConfigSources(Map.of(), Map.of(), null);
    }

    /** Finds --config-file before the real parse, since it decides the other options' defaults. */
    public static Path configFileArgument(String[] args, Map<String, String> environment) {
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--config-file") && i + 1 < args.length) {
                return Path.of(args[i + 1]);
            }
            if (args[i].startsWith("--config-file=")) {
                return Path.of(args[i].substring("--config-file=".length()));
            }
        }
        for (String variable : List.of(ENV_PREFIX + "CONFIG_FILE", NWAKU_ENV_PREFIX + "CONFIG_FILE")) {
            String env = environment.get(variable);
            if (env != null && !env.isBlank()) {
                return Path.of(env);
            }
        }
        return null;
    }

    public static String environmentName(String optionName) {
        return ENV_PREFIX + screamingSnake(optionName);
    }

    /** nwaku's variable of {@code optionName}: {@code WAKUNODE2_DNS4_DOMAIN_NAME} for {@code --dns4-domain-name}. */
    public static String nwakuEnvironmentName(String optionName) {
        return NWAKU_ENV_PREFIX + screamingSnake(optionName);
    }

    private static String screamingSnake(String optionName) {
        return optionName.replaceFirst("^--", "").replace('-', '_').toUpperCase(Locale.ROOT);
    }

    @Override
    public String defaultValue(CommandLine.Model.ArgSpec argSpec) {
        if (!(argSpec instanceof CommandLine.Model.OptionSpec option)) {
            return null;
        }
        Origin origin = origin(option.longestName());
        return origin != null ? origin.value() : OptionDefaults.of(option.longestName());
    }

    /** Where the environment or the config file gives {@code option} (e.g. {@code --tcp-port}) a value; null: neither. */
    public Origin origin(String option) {
        String ours = environmentName(option);
        if (environment.containsKey(ours)) {
            return new Origin("environment variable " + ours, environment.get(ours));
        }
        String key = option.replaceFirst("^--", "");
        String nwaku = nwakuEnvironmentName(option);
        if (NwakuConfigKeys.isNwakuOption(key) && environment.containsKey(nwaku)) {
            return new Origin("environment variable " + nwaku, environment.get(nwaku));
        }
        if (file.containsKey(key)) {
            return new Origin("config file " + filePath, file.get(key));
        }
        return null;
    }

    /**
     * {@code message} with where the options it names came from, for those not given on the command line: a bad value
     * from the environment or the config file says where to fix it.
     *
     * @param onCommandLine whether an option (e.g. {@code --tcp-port}) was given on the command line
     */
    public String withOrigins(String message, Predicate<String> onCommandLine) {
        List<String> origins = new ArrayList<>();
        java.util.regex.Matcher m = OPTION.matcher(message);
        java.util.Set<String> seen = new java.util.HashSet<>();
        while (m.find()) {
            String option = m.group();
            Origin origin = seen.add(option) && !onCommandLine.test(option) ? origin(option) : null;
            if (origin != null) {
                origins.add(option + " came from the " + origin.where());
            }
        }
        return origins.isEmpty() ? message : message + " (" + String.join("; ", origins) + ")";
    }

    /** A config file key that is no option: with the closest option's key when one is close. */
    public static String unknownKey(String key, Collection<String> options) {
        return "'" + key + "'" + DidYouMean.closest(key, options).map(o -> " (did you mean '" + o + "'?)").orElse("");
    }

    /** Whether the environment or the config file gives {@code option} (e.g. {@code --tcp-port}) a value. */
    public boolean gives(String option) {
        return origin(option) != null;
    }

    public Iterable<String> fileKeys() {
        return file.keySet();
    }

    /**
     * Sorts the config file's keys that {@code known} does not take into those that stop the start, nwaku's that are
     * ignored, and those that are no option at all ({@link NwakuConfigKeys}).
     *
     * @param known whether the node has an option of that name
     */
    public NwakuConfigKeys.Sorted unsupportedFileKeys(Predicate<String> known) {
        List<String> unknown = new ArrayList<>();
        for (String key : file.keySet()) {
            if (!known.test(key)) {
                unknown.add(key);
            }
        }
        return NwakuConfigKeys.sort(unknown, file::get);
    }

    /**
     * What the {@code WAKURELAY_*} and {@code WAKUNODE2_*} variables hold that this node does not read: nwaku's options
     * it lacks (those that turn on what it cannot do refused, as in a config file), names of no option (with the
     * closest option's variable), and {@code WAKUNODE2_} variables of options that are this node's own.
     *
     * @param options the node's option names, without the dashes
     */
    public EnvironmentReport environmentReport(Collection<String> options) {
        List<String> notNwakus = new ArrayList<>();
        List<String> conflicts = new ArrayList<>();
        Map<String, String> nwakuUnread = new TreeMap<>();
        List<String> unknown = new ArrayList<>();
        for (String variable : new TreeMap<>(environment).keySet()) {
            String prefix = variable.startsWith(ENV_PREFIX) ? ENV_PREFIX
                    : variable.startsWith(NWAKU_ENV_PREFIX) ? NWAKU_ENV_PREFIX : null;
            if (prefix == null || NOT_OPTIONS.contains(variable) || variable.equals(prefix + "CONFIG_FILE")) {
                continue;
            }
            String name = variable.substring(prefix.length()).toLowerCase(Locale.ROOT).replace('_', '-');
            boolean nwakus = NwakuConfigKeys.isNwakuOption(name);
            if (options.contains(name)) {
                String ours = ENV_PREFIX + variable.substring(prefix.length());
                if (prefix.equals(NWAKU_ENV_PREFIX) && !nwakus) {
                    notNwakus.add(variable + " (set " + ours + ": --" + name + " is this node's, not nwaku's)");
                } else if (prefix.equals(NWAKU_ENV_PREFIX) && environment.containsKey(ours)
                        && !environment.get(ours).equals(environment.get(variable))) {
                    conflicts.add(variable + " (" + ours + " is set too, and wins)");
                }
            } else if (prefix.equals(NWAKU_ENV_PREFIX) && nwakus) {
                nwakuUnread.put(name, variable);
            } else {
                unknown.add(variable + DidYouMean.closest(name, options)
                        .map(o -> " (did you mean " + prefix + screamingSnake(o) + "?)").orElse(""));
            }
        }
        NwakuConfigKeys.Sorted nwakus = NwakuConfigKeys.sort(nwakuUnread.keySet(),
                name -> environment.get(nwakuUnread.get(name)));
        List<String> refused = nwakus.refused().stream()
                .map(r -> nwakuUnread.get(r.substring(0, r.indexOf(' '))) + r.substring(r.indexOf(' '))).toList();
        List<String> warnings = new ArrayList<>();
        if (!nwakus.ignored().isEmpty()) {
            warnings.add("environment: ignoring " + nwakus.ignored().size() + " nwaku variable(s) this node has no "
                    + "option for: " + String.join(", ", nwakus.ignored().stream().map(nwakuUnread::get).toList()));
        }
        if (!unknown.isEmpty()) {
            warnings.add("environment: " + String.join(", ", unknown) + " name(s) no option; not read");
        }
        if (!notNwakus.isEmpty()) {
            warnings.add("environment: " + String.join(", ", notNwakus) + " not read");
        }
        if (!conflicts.isEmpty()) {
            warnings.add("environment: " + String.join(", ", conflicts));
        }
        return new EnvironmentReport(refused, warnings);
    }

    /**
     * @param refused  nwaku variables that turn on what this node cannot do, with what (the start stops)
     * @param warnings what the node starts despite, each said once
     */
    public record EnvironmentReport(List<String> refused, List<String> warnings) {
    }

    private static Map<String, String> readToml(Path path) {
        JsonNode root;
        try {
            root = new TomlMapper().readTree(Files.readString(path));
        } catch (java.nio.file.NoSuchFileException e) {
            throw new IllegalArgumentException("config file " + path + " does not exist", e);
        } catch (java.nio.file.AccessDeniedException e) {
            throw new IllegalArgumentException("cannot read config file " + path + ": permission denied", e);
        } catch (IOException e) {
            // Jackson's parse errors say the line and column
            throw new IllegalArgumentException("cannot read config file " + path + ": " + e.getMessage(), e);
        }
        Map<String, String> values = new java.util.LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode v = e.getValue();
            if (v.isArray()) {
                List<String> parts = new ArrayList<>();
                v.forEach(item -> parts.add(scalar(path, e.getKey(), item)));
                values.put(e.getKey(), String.join(",", parts));
            } else {
                values.put(e.getKey(), scalar(path, e.getKey(), v));
            }
        }
        return values;
    }

    private static String scalar(Path path, String key, JsonNode v) {
        if (v.isContainerNode()) {
            throw new IllegalArgumentException("config file " + path + ": '" + key + "' must be a value or an array of values");
        }
        return v.asText();
    }
}
