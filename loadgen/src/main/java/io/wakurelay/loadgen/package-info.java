/**
 * The load generator (loadgen/README.md). {@link io.wakurelay.loadgen.LoadgenMain} parses a scenario and a
 * {@link io.wakurelay.loadgen.Workload} (seeded payload mix); {@code FrameSet} encodes the workload just ahead of use
 * as relay-stream frames (length-prefixed gossipsub publish RPCs) that {@code FrameFeeder} injects into a node's
 * relay through {@code RelayInjector} (the relay's {@code PseudoPeer}: the receive path a peer's RPCs take). The scenarios: {@code MicroScenario}, {@code MacroScenario}, {@code LatencyScenario} and
 * {@code ThroughputScenario} (on {@code RelayTrio}), {@code DriveScenario} and {@code QueryScenario} against running
 * nodes, {@code DiscoverScenario} (nodes that find each other by discv5 from one ENR, watched by {@code DiscoverRun}),
 * which start nodes with {@code InProcessNodes}, pace with a {@code Window}, follow messages with a
 * {@code Tracker} (or a {@code StorePoller} over {@code RemoteStore}), and measure with {@code Measurement},
 * {@link io.wakurelay.loadgen.MemorySampler}, {@link io.wakurelay.loadgen.Latencies} and {@code RemoteMetrics} into a
 * {@link io.wakurelay.loadgen.ResultRow} (and {@code HtmlReport}, with {@code TimelinePlots} of a window's
 * {@code Timeline}); {@link io.wakurelay.loadgen.Progress} and
 * {@code Periodic} report while it runs.
 */
package io.wakurelay.loadgen;
