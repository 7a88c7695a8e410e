/**
 * The node's configuration: the records {@link io.wakurelay.node.config.NodeConfig},
 * {@link io.wakurelay.node.config.ServicesConfig}, {@link io.wakurelay.node.config.PeerExchangeSettings} and
 * {@link io.wakurelay.node.config.EdgeConfig} ({@code --relay}, {@code --storenode}, {@code --lightpushnode}, from the
 * {@link io.wakurelay.node.config.EdgeOptions} mixin), {@link io.wakurelay.node.config.PeerManagerConfig}
 * ({@code --relay-service-ratio} as {@link io.wakurelay.node.config.RelayServiceRatio}, {@code --peer-store-capacity},
 * from the {@link io.wakurelay.node.config.PeerManagerOptions} mixin, the host's trimming from the
 * {@link io.wakurelay.node.config.ConnectionOptions} mixin), and the
 * command line that builds them, creating nothing: {@link io.wakurelay.node.config.NodeOptions} (picocli options, also read from
 * {@code WAKURELAY_*} variables and a TOML file by {@link io.wakurelay.node.config.ConfigSources}, and otherwise from
 * {@code OptionDefaults}, which writes them from {@link io.wakurelay.node.config.NodeConfig#DEFAULTS}) mapped onto the
 * components' configs by {@code RelayConfigs} (host and relay, with the shards of {@code ContentTopicOptions}'
 * {@code --content-topic}) and {@code ServiceOptions} (store, lightpush, filter) and
 * {@link io.wakurelay.node.config.FilterClientOptions} ({@code --filternode}),
 * with the value parsers {@link io.wakurelay.node.config.ByteSize}, {@link io.wakurelay.node.config.DurationText} and
 * {@link io.wakurelay.node.config.HostPort}; {@link io.wakurelay.node.config.NodeVersion} answers {@code --version}
 * and holds the build's version.
 */
package io.wakurelay.node.config;
