/**
 * The node's logs: {@link io.wakurelay.node.logging.LogFormat} (TEXT or JSON lines, ADR 0071), with
 * {@link io.wakurelay.node.logging.NwakuLevel} (nwaku's {@code "lvl"} tag in JSON lines), and
 * {@link io.wakurelay.node.logging.LogLevels} (nwaku's level names, set at start and by REST);
 * {@link io.wakurelay.node.logging.UncaughtExceptions} sends uncaught exceptions to the log, not to standard error.
 */
package io.wakurelay.node.logging;
