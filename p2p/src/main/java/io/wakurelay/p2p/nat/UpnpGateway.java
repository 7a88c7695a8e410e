package io.wakurelay.p2p.nat;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A UPnP Internet Gateway Device (IGD:1 or IGD:2), as miniupnpc speaks to it for nwaku: found by SSDP, its
 * WANIPConnection (or WANPPPConnection) service read from its device description, then asked over SOAP for its
 * external address ({@code GetExternalIPAddress}) and for mappings ({@code AddPortMapping}, the same port outside as
 * inside, for this host's address on the network the gateway is on; {@code DeletePortMapping}). Before mapping, it is
 * asked whether the port is forwarded already ({@code GetSpecificPortMappingEntry}): a forward to this host made by
 * hand, under another description, is kept as it is and never deleted (nim-eth deletes it at shutdown: its FIXME).
 */
final class UpnpGateway implements NatGateway {
    /** UPnP's NoSuchEntryInArray: GetSpecificPortMappingEntry found no mapping. */
    private static final int NO_SUCH_ENTRY = 714;
    /** OnlyPermanentLeasesSupported (IGD:1): the gateway takes a lease of 0 only. */
    private static final int ONLY_PERMANENT_LEASES = 725;

    private final UpnpHttp http;
    private final UpnpXml.Service service;
    private final InetAddress lanAddress;
    private final NatConfig config;

    private UpnpGateway(UpnpHttp http, UpnpXml.Service service, InetAddress lanAddress, NatConfig config) {
        this.http = http;
        this.service = service;
        this.lanAddress = lanAddress;
        this.config = config;
    }

    /** The gateway that answers SSDP at {@code target}, its description read; empty when none answers. */
    static Optional<UpnpGateway> discover(NatConfig config, InetSocketAddress target) throws NatException {
        Optional<URI> location = Ssdp.discover(target, config.ssdpWait(), config.ssdpAttempts());
        if (location.isEmpty()) {
            return Optional.empty();
        }
        UpnpHttp http = new UpnpHttp(config.httpTimeout(), config.maxResponseBytes());
        UpnpHttp.Answer description = http.get(location.get());
        if (description.status() != 200) {
            throw new NatException("the device description " + location.get() + " answered HTTP " + description.status());
        }
        UpnpXml.Service service = UpnpXml.connectionService(UpnpXml.parse(description.body()), location.get());
        return Optional.of(new UpnpGateway(http, service, lanAddressTowards(service.control()), config));
    }

    /** The address of this host that the gateway sees: the source address of a socket connected to it. */
    private static InetAddress lanAddressTowards(URI control) throws NatException {
        int port = control.getPort() > 0 ? control.getPort() : 80;
        try (DatagramSocket probe = new DatagramSocket()) {
            probe.connect(new InetSocketAddress(InetAddress.getByName(control.getHost()), port)); // no datagram is sent
            InetAddress local = probe.getLocalAddress();
            if (local == null || local.isAnyLocalAddress() || !(local instanceof Inet4Address)) {
                throw new NatException("no IPv4 address of this host on the way to " + control.getHost());
            }
            return local;
        } catch (IOException e) {
            throw new NatException("no route to the gateway " + control.getHost() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public String protocol() {
        return "upnp";
    }

    @Override
    public String describe() {
        String type = service.type();
        return "UPnP " + type.substring(type.lastIndexOf(":service:") + ":service:".length()) + " at "
                + service.control() + " (this host " + lanAddress.getHostAddress() + ")";
    }

    @Override
    public InetAddress externalAddress() throws NatException {
        String ip = call("GetExternalIPAddress", new LinkedHashMap<>()).get("NewExternalIPAddress");
        return ipv4(ip);
    }

    /** An IPv4 literal, never a name to look up; 0.0.0.0 (a gateway that has no external address yet) is refused. */
    static InetAddress ipv4(String text) throws NatException {
        String[] octets = text == null ? new String[0] : text.strip().split("\\.", -1);
        byte[] bytes = new byte[4];
        if (octets.length != 4) {
            throw new NatException("GetExternalIPAddress gave no IPv4 address: '" + text + "'");
        }
        for (int i = 0; i < 4; i++) {
            if (!octets[i].matches("[0-9]{1,3}") || Integer.parseInt(octets[i]) > 255) {
                throw new NatException("GetExternalIPAddress gave no IPv4 address: '" + text + "'");
            }
            bytes[i] = (byte) Integer.parseInt(octets[i]);
        }
        try {
            InetAddress address = InetAddress.getByAddress(bytes);
            if (address.isAnyLocalAddress()) {
                throw new NatException("the gateway has no external address (it answered 0.0.0.0)");
            }
            return address;
        } catch (java.net.UnknownHostException e) {
            throw new NatException("not an address: " + text, e); // cannot happen: 4 bytes
        }
    }

    @Override
    public MappedPort map(NatPort port, int externalPort) throws NatException {
        Optional<Map<String, String>> existing = existing(port.protocol(), externalPort);
        if (existing.isPresent()) {
            Map<String, String> entry = existing.get();
            boolean toUs = lanAddress.getHostAddress().equals(entry.get("NewInternalClient"))
                    && String.valueOf(port.internalPort()).equals(entry.get("NewInternalPort"));
            if (toUs && !config.description().equals(entry.get("NewPortMappingDescription"))) {
                return new MappedPort(port, externalPort, false); // forwarded to us by hand: left as it is
            }
            // ours from before (renewed below), or someone else's (the gateway refuses the add: a conflict)
        }
        try {
            add(port, externalPort, config.upnpLease().toSeconds());
        } catch (NatException e) {
            if (e.upnpError() != ONLY_PERMANENT_LEASES || config.upnpLease().isZero()) {
                throw e;
            }
            add(port, externalPort, 0);
        }
        return new MappedPort(port, externalPort, true);
    }

    private void add(NatPort port, int externalPort, long leaseSeconds) throws NatException {
        Map<String, String> args = new LinkedHashMap<>();
        args.put("NewRemoteHost", "");
        args.put("NewExternalPort", String.valueOf(externalPort));
        args.put("NewProtocol", port.protocol().name());
        args.put("NewInternalPort", String.valueOf(port.internalPort()));
        args.put("NewInternalClient", lanAddress.getHostAddress());
        args.put("NewEnabled", "1");
        args.put("NewPortMappingDescription", config.description());
        args.put("NewLeaseDuration", String.valueOf(leaseSeconds));
        call("AddPortMapping", args);
    }

    private Optional<Map<String, String>> existing(NatPort.Protocol protocol, int externalPort) throws NatException {
        try {
            return Optional.of(call("GetSpecificPortMappingEntry", key(protocol, externalPort)));
        } catch (NatException e) {
            if (e.upnpError() == NO_SUCH_ENTRY) {
                return Optional.empty();
            }
            if (e.upnpError() > 0) {
                return Optional.empty(); // a gateway that cannot say: the add tells
            }
            throw e;
        }
    }

    @Override
    public void unmap(MappedPort mapped) throws NatException {
        call("DeletePortMapping", key(mapped.port().protocol(), mapped.externalPort()));
    }

    private static Map<String, String> key(NatPort.Protocol protocol, int externalPort) {
        Map<String, String> args = new LinkedHashMap<>();
        args.put("NewRemoteHost", "");
        args.put("NewExternalPort", String.valueOf(externalPort));
        args.put("NewProtocol", protocol.name());
        return args;
    }

    private Map<String, String> call(String action, Map<String, String> args) throws NatException {
        UpnpHttp.Answer answer = http.soap(service.control(), service.type(), action,
                UpnpXml.envelope(service.type(), action, args));
        if (answer.status() != 200) {
            throw UpnpXml.fault(answer.status(), answer.body(), action);
        }
        return UpnpXml.answer(answer.body(), action);
    }
}
