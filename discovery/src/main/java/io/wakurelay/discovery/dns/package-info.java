/**
 * EIP-1459 DNS discovery, the client side as nwaku and js-waku run it, in flow order:
 * {@link io.wakurelay.discovery.dns.DnsDiscovery} with {@link io.wakurelay.discovery.dns.DnsDiscoveryConfig}: the
 * finder, which reads the trees at start and again later and offers their records of this cluster to the record sink;
 * {@link io.wakurelay.discovery.dns.EnrTreeUrl} names a tree, {@link io.wakurelay.discovery.dns.EnrTreeSync} reads and
 * verifies it through a {@link io.wakurelay.discovery.dns.TxtResolver}
 * ({@link io.wakurelay.discovery.dns.DnsTxtResolver}: Netty's DNS resolver over UDP), within
 * {@link io.wakurelay.discovery.dns.EnrTreeLimits}; {@code TreeEntries} (the signed root, branches and their hashes)
 * and {@code Base32} parse the TXT records; {@link io.wakurelay.discovery.dns.EnrTreeException} says what was refused,
 * {@link io.wakurelay.discovery.dns.DnsDiscoveryMetrics} counts it. docs/discovery.md, ADR 0079.
 */
package io.wakurelay.discovery.dns;
