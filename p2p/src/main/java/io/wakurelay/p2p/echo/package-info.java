/**
 * {@code /wakurelay/echo/1.0.0}, a diagnostic protocol for the interop tests and the transport benchmarks:
 * {@link io.wakurelay.p2p.echo.EchoProtocol} (the server) and {@link io.wakurelay.p2p.echo.EchoClient}.
 * A node does not serve it.
 */
package io.wakurelay.p2p.echo;
