/**
 * The node's command line: {@link io.wakurelay.node.config.NodeOptions} (picocli options, also read from
 * {@code WAKURELAY_*} variables and a TOML file by {@link io.wakurelay.node.config.ConfigSources}, and otherwise from
 * {@code OptionDefaults}, which writes them from {@link io.wakurelay.node.NodeConfig#DEFAULTS}) mapped onto the
 * components' configs by {@code RelayConfigs} (host and relay) and {@code ServiceOptions} (store, lightpush, filter),
 * with the value parsers {@link io.wakurelay.node.config.ByteSize}, {@link io.wakurelay.node.config.DurationText} and
 * {@link io.wakurelay.node.config.HostPort}; {@link io.wakurelay.node.config.NodeVersion} answers {@code --version}.
 */
package io.wakurelay.node.config;
