/**
 * EIP-1459 DNS discovery, the client side as nwaku and js-waku run it: {@link io.wakurelay.discovery.dns.EnrTreeUrl}
 * names a tree, {@link io.wakurelay.discovery.dns.EnrTreeSync} reads and verifies it through a
 * {@link io.wakurelay.discovery.dns.TxtResolver} ({@link io.wakurelay.discovery.dns.DnsTxtResolver}: Netty's DNS
 * resolver over UDP), within {@link io.wakurelay.discovery.dns.EnrTreeLimits}. docs/discovery.md, ADR 0079.
 */
package io.wakurelay.discovery.dns;
