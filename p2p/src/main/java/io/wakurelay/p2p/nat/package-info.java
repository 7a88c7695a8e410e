/**
 * The host's ports mapped at the local network's gateway (nwaku's {@code --nat=any|upnp|pmp}, docs/p2p.md, "Port
 * mapping"); knows nothing of the host it maps for. In flow order:
 * <ul>
 * <li>{@link io.wakurelay.p2p.nat.NatConfig}: the method and the bounds of every exchange; {@code DEFAULTS}.</li>
 * <li>{@link io.wakurelay.p2p.nat.NatPort}, {@link io.wakurelay.p2p.nat.MappedPort}: a port to map, a port mapped.</li>
 * <li>{@link io.wakurelay.p2p.nat.NatMapping}: the handle: finds a gateway, maps, renews, deletes at shutdown.</li>
 * <li>{@code NatGateway}: what a gateway does; {@code NatException}: an exchange that failed.</li>
 * <li>{@code Ssdp}: the M-SEARCH that finds a UPnP gateway.</li>
 * <li>{@code UpnpHttp}, {@code UpnpXml}: HTTP (the JDK's client) and XML (the JDK's parser, no DTD) of UPnP.</li>
 * <li>{@code UpnpGateway}: a UPnP Internet Gateway Device's WANIPConnection or WANPPPConnection service.</li>
 * <li>{@code DefaultRoute}, {@code PmpGateway}: NAT-PMP (RFC 6886) at the default gateway.</li>
 * <li>{@link io.wakurelay.p2p.nat.NatState}, {@link io.wakurelay.p2p.nat.NatMetrics}: where it stands, the
 *     {@code libp2p_nat_*} meters.</li>
 * </ul>
 */
package io.wakurelay.p2p.nat;
