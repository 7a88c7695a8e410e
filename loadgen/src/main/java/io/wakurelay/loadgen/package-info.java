/**
 * The load generator (loadgen/README.md). {@link io.wakurelay.loadgen.LoadgenMain} is the command line: each scenario's
 * command stands beside its scenario ({@code MicroCommand}, {@code MacroCommand}, {@code FanoutCommand},
 * {@code MeshCommand}, {@code DiscoverCommand}, {@code LatencyCommand}, {@code ThroughputCommand},
 * {@code DriveCommand}, {@code QueryCommand}), with the options several share as mixins: {@code WorkloadOptions} (a
 * seeded {@link io.wakurelay.loadgen.Workload}), {@code OutputOptions} (rows, reports, work directory) and
 * {@code RelayTrioOptions}, and the base classes that hold them: {@code WorkloadCommand} (the seeded scenarios') and
 * {@code RelayTrioCommand} ({@code lat}'s and {@code thr}'s). {@code FrameSet} encodes the workload just ahead of
 * use as relay-stream frames
 * (length-prefixed gossipsub publish RPCs) for a {@code FrameSink}: {@code FrameFeeder} injects them into a node's
 * relay through {@code RelayInjector} (the relay's {@code PseudoPeer}: the receive path a peer's RPCs take),
 * {@code RestPublisher} posts their messages to a node's REST API. The scenarios: {@code MicroScenario},
 * {@code MacroScenario},
 * {@code FanoutScenario}, {@code MeshScenario} (with {@code LinkDelay} and {@code MeshHops}), {@code LatencyScenario}
 * and {@code ThroughputScenario} (on {@code RelayTrio}), {@code DriveScenario} and {@code QueryScenario} against
 * running nodes, {@code DiscoverScenario} (nodes that find each other by discv5 from one ENR, watched by
 * {@code DiscoverRun}), which start nodes with {@code InProcessNodes}, pace with a {@code Window}, follow messages with
 * a {@code Tracker} (or a {@code StorePoller} over {@code RestStoreClient}), and measure with {@code Measurement},
 * {@link io.wakurelay.loadgen.MemorySampler}, {@link io.wakurelay.loadgen.Latencies}, {@code ThreadCpu}, and for a
 * node in another process {@code RemoteNodeMeter} on {@code RemoteMetrics} ({@code PrometheusText}), into a
 * {@link io.wakurelay.loadgen.ResultRow} (and {@code HtmlReport} with {@code Hgrm} and {@code RunFacts}, with
 * {@code TimelinePlots} of a window's {@code Timeline}); {@link io.wakurelay.loadgen.Progress} and {@code Periodic}
 * report while it runs.
 */
package io.wakurelay.loadgen;
