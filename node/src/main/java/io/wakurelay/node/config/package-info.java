/**
 * The node's configuration: the records {@link io.wakurelay.node.config.NodeConfig},
 * {@link io.wakurelay.node.config.ServicesConfig}, {@link io.wakurelay.node.config.PeerExchangeSettings},
 * {@link io.wakurelay.node.config.EdgeConfig} and
 * {@link io.wakurelay.node.config.PeerManagerConfig} (with {@link io.wakurelay.node.config.RelayServiceRatio}), with
 * the records of the components they hold (discovery's {@code DiscoveryConfig} among them), and the command line that
 * builds them, creating nothing. {@link io.wakurelay.node.config.NodeOptions} holds the node's own
 * options and one picocli mixin per component, in the order {@code --help} lists them, each building its part of the
 * config: {@link io.wakurelay.node.config.HostOptions} (addresses, WebSocket, static peers, {@code --ports-shift}, and
 * {@code --nat}, read by {@code NatMethod}),
 * {@link io.wakurelay.node.config.NetworkOptions} (preset, cluster, sharding, topics with
 * {@link io.wakurelay.node.config.ContentTopicOptions}, message limits; the preset's values,
 * {@link io.wakurelay.node.config.NetworkPreset}, are set over the options' before the config is built),
 * {@link io.wakurelay.node.config.ConnectionOptions} (the host's connection limits and timers),
 * {@link io.wakurelay.node.config.RelayOptions}, {@link io.wakurelay.node.config.EdgeOptions} ({@code --relay} and
 * the service nodes of edge mode), {@link io.wakurelay.node.config.RlnOptions} (RLN relay, built into
 * {@link io.wakurelay.rln.RlnConfig}), {@link io.wakurelay.node.config.StoreOptions} (the archive, with
 * {@code StoreLocation} for its URL and password, and the Store query limits),
 * {@link io.wakurelay.node.config.LightpushOptions}, {@link io.wakurelay.node.config.FilterOptions} (with
 * {@link io.wakurelay.node.config.FilterClientOptions}' {@code --filternode}),
 * {@link io.wakurelay.node.config.PeerExchangeOptions}, {@link io.wakurelay.node.config.DnsDiscoveryOptions},
 * {@link io.wakurelay.node.config.Discv5Options}, {@link io.wakurelay.node.config.PeerManagerOptions},
 * {@link io.wakurelay.node.config.RateLimitOptions}, {@link io.wakurelay.node.config.RestOptions},
 * {@link io.wakurelay.node.config.MetricsOptions} and {@link io.wakurelay.node.config.LogOptions}. Their values also
 * come from {@code WAKURELAY_*} and nwaku's {@code WAKUNODE2_*} variables and a TOML file
 * ({@link io.wakurelay.node.config.ConfigSources}, which sorts what it cannot read with
 * {@link io.wakurelay.node.config.NwakuConfigKeys} and suggests the closest option with {@code DidYouMean}), and
 * otherwise from
 * {@code OptionDefaults}, which writes them from {@link io.wakurelay.node.config.NodeConfig#DEFAULTS}; the value
 * parsers and formatters are {@link io.wakurelay.node.config.RetentionText} (the start line's retention, as nwaku writes
 * it), {@link io.wakurelay.node.config.ByteSize}, {@link io.wakurelay.node.config.DurationText} and
 * {@link io.wakurelay.node.config.HostPort}; {@link io.wakurelay.node.config.NodeVersion} answers {@code --version}
 * and holds the build's version.
 */
package io.wakurelay.node.config;
