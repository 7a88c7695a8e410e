package io.wakurelay.node.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Defaults for command-line options from the environment and an optional TOML config file, in that order
 * of precedence (flags given on the command line beat both; the built-in defaults of {@link OptionDefaults} come last).
 *
 * <p>For an option {@code --tcp-port} the environment variable is {@code WAKURELAY_TCP_PORT} and the config
 * file key is {@code tcp-port}. Repeatable options take a TOML array or a comma-separated string.
 */
public final class ConfigSources implements CommandLine.IDefaultValueProvider {
    public static final String ENV_PREFIX = "WAKURELAY_";

    private final Map<String, String> environment;
    private final Map<String, String> file;

    private ConfigSources(Map<String, String> environment, Map<String, String> file) {
        this.environment = environment;
        this.file = file;
    }

    /**
     * @param configFile the file named by --config-file (or WAKURELAY_CONFIG_FILE), or null
     * @throws IllegalArgumentException when the file cannot be read or is not TOML of simple values
     */
    public static ConfigSources of(Map<String, String> environment, Path configFile) {
        return new ConfigSources(environment, configFile == null ? Map.of() : readToml(configFile));
    }

    /** Only the built-in defaults (for {@code --help} and tests that must not see this process's environment). */
    public static ConfigSources builtIn() {
        return new ConfigSources(Map.of(), Map.of());
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
        String env = environment.get(ENV_PREFIX + "CONFIG_FILE");
        return env == null || env.isBlank() ? null : Path.of(env);
    }

    public static String environmentName(String optionName) {
        return ENV_PREFIX + optionName.replaceFirst("^--", "").replace('-', '_').toUpperCase(Locale.ROOT);
    }

    @Override
    public String defaultValue(CommandLine.Model.ArgSpec argSpec) {
        if (!(argSpec instanceof CommandLine.Model.OptionSpec option)) {
            return null;
        }
        String env = environment.get(environmentName(option.longestName()));
        if (env != null) {
            return env;
        }
        String fromFile = file.get(option.longestName().replaceFirst("^--", ""));
        return fromFile != null ? fromFile : OptionDefaults.of(option.longestName());
    }

    /** Whether the environment or the config file gives {@code option} (e.g. {@code --tcp-port}) a value. */
    public boolean gives(String option) {
        return environment.containsKey(environmentName(option)) || file.containsKey(option.replaceFirst("^--", ""));
    }

    public Iterable<String> fileKeys() {
        return file.keySet();
    }

    /**
     * Sorts the config file's keys that {@code known} does not take into those that stop the start and those that are
     * ignored ({@link NwakuConfigKeys}).
     *
     * @param known whether the node has an option of that name
     */
    public NwakuConfigKeys.Sorted unsupportedFileKeys(java.util.function.Predicate<String> known) {
        List<String> unknown = new ArrayList<>();
        for (String key : file.keySet()) {
            if (!known.test(key)) {
                unknown.add(key);
            }
        }
        return NwakuConfigKeys.sort(unknown, file::get);
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
