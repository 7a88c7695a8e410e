/**
 * The node's logs: {@link io.wakurelay.node.logging.LogFormat} (TEXT or JSON lines, ADR 0071) and
 * {@link io.wakurelay.node.logging.LogLevels} (nwaku's level names, set at start and by REST).
 */
package io.wakurelay.node.logging;
