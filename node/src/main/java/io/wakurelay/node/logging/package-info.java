/**
 * The node's logs: {@link io.wakurelay.node.logging.LogFormat} (TEXT or JSON lines, ADR 0071), with
 * {@code NwakuLevel} (nwaku's {@code "lvl"} tag in JSON lines), and {@link io.wakurelay.node.logging.LogLevels}
 * (nwaku's level names, set at start and by REST); {@code UncaughtExceptions}: what escapes a thread, logged.
 */
package io.wakurelay.node.logging;
