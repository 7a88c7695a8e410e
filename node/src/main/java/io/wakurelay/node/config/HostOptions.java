package io.wakurelay.node.config;

import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.p2p.HostConfig;
import io.wakurelay.p2p.HostConfigBuilder;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.p2p.nat.NatConfig;
import io.wakurelay.p2p.ws.PemFiles;
import io.wakurelay.p2p.ws.WebSocketConfig;
import io.wakurelay.p2p.ws.WebSocketConfigBuilder;
import picocli.CommandLine;
import picocli.CommandLine.Option;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The p2p host's addresses (nwaku's names), a picocli mixin of {@link NodeOptions}: where it listens (TCP and
 * WebSocket), what it announces, {@code --ports-shift} for every port of the node, and the static peers; the
 * connection limits are {@link ConnectionOptions}. Both fill the {@link HostConfig}.
 */
public final class HostOptions {
    @Option(names = "--listen-address", paramLabel = "IP", description = "interface for peer connections")
    String listenAddress;

    @Option(names = "--tcp-port", paramLabel = "PORT", description = "port for peer connections (0 = any free port)")
    int tcpPort;

    @Option(names = "--ports-shift", paramLabel = "N", description = "added to every port (to run several nodes on one host)")
    int portsShift;

    @Option(names = "--nat", paramLabel = "METHOD",
            description = "how the public address is found (nwaku's flag): extip:<IP> announces IP (identify, the "
                    + "ENR) with the TCP and WebSocket ports, forwarded by hand; upnp and pmp ask the gateway to "
                    + "forward the TCP, WebSocket and discv5 ports and announce its external address, any tries UPnP "
                    + "then NAT-PMP (nwaku's default); none announces the bound address")
    String nat;

    @Option(names = "--ext-multiaddr", paramLabel = "MULTIADDR", split = ",",
            description = "address peers should dial, announced by identify instead of the bound address of its transport "
                    + "(TCP, or WebSocket for one with /ws or /wss) (repeatable)")
    List<String> extMultiaddrs = new ArrayList<>();

    @Option(names = "--ext-multiaddr-only", paramLabel = "BOOL", arity = "0..1", fallbackValue = "true",
            showDefaultValue = CommandLine.Help.Visibility.ALWAYS,
            description = "announce only the --ext-multiaddr addresses (nwaku's flag): no bound address, no --dns4-domain-name one")
    boolean extMultiaddrOnly;

    @Option(names = "--dns4-domain-name", paramLabel = "NAME",
            description = "DNS name of this node's public IPv4 address: identify announces /dns4/NAME/tcp/<port> (and "
                    + "/dns4/NAME/tcp/<websocket port>/ws or /wss) instead of the bound addresses; a browser needs it "
                    + "for wss")
    String dns4DomainName;

    @Option(names = "--websocket-support", paramLabel = "BOOL", arity = "0..1", fallbackValue = "true",
            showDefaultValue = CommandLine.Help.Visibility.ALWAYS,
            description = "accept libp2p over WebSocket (/ws) on --websocket-port, as browsers (js-waku) dial")
    boolean websocketSupport;

    @Option(names = "--websocket-port", paramLabel = "PORT",
            description = "port of the WebSocket listener (0 = any free port)")
    int websocketPort;

    @Option(names = "--websocket-secure-support", paramLabel = "BOOL", arity = "0..1", fallbackValue = "true",
            showDefaultValue = CommandLine.Help.Visibility.ALWAYS,
            description = "WebSocket in TLS (/wss) on --websocket-port, with the two files below (turns WebSocket on)")
    boolean websocketSecureSupport;

    @Option(names = "--websocket-secure-key-path", paramLabel = "FILE",
            description = "PEM private key of the wss certificate (PKCS#8, PKCS#1 RSA or SEC1 EC; e.g. certbot's "
                    + "privkey.pem)")
    Path websocketSecureKeyPath;

    @Option(names = "--websocket-secure-cert-path", paramLabel = "FILE",
            description = "PEM certificate chain of wss, leaf first (e.g. certbot's fullchain.pem)")
    Path websocketSecureCertPath;

    @Option(names = "--staticnode", paramLabel = "MULTIADDR", split = ",",
            description = "peer to connect to and keep connected to, "
                    + "/ip4|/ip6|/dns4|/dns6/.../tcp/N[/ws|/wss]/p2p/<peer id>, or its ENR enr:… (dialled at its first "
                    + "TCP or WebSocket address, and served by peer exchange) (repeatable)")
    List<String> staticNodes = new ArrayList<>();

    /** {@code port} moved by {@code --ports-shift}; 0 (any free port) stays 0. */
    int shifted(int port) {
        if (port == 0) {
            return 0;
        }
        int p = port + portsShift;
        if (p < 1 || p > 65535) {
            throw new IllegalArgumentException("port " + port + " shifted by --ports-shift " + portsShift + " is outside 1..65535");
        }
        return p;
    }

    /**
     * The port mapping {@code --nat=any|upnp|pmp} asks of the gateway, or null ({@code none}, {@code extip:}). The
     * ports are mapped before they are bound, so they must be fixed; the mappings are described as identify names
     * this node ({@code wakurelay/<version>}).
     */
    NatConfig nat() {
        NatMethod method = NatMethod.parse(nat);
        if (!method.mapsPorts()) {
            return null;
        }
        if (shifted(tcpPort) == 0 || ((websocketSupport || websocketSecureSupport) && shifted(websocketPort) == 0)) {
            throw new IllegalArgumentException(method.method() + " maps the ports at the gateway before they are "
                    + "bound: it needs a fixed --tcp-port" + (websocketSupport || websocketSecureSupport
                    ? " and --websocket-port" : "") + ", not 0");
        }
        return NatConfig.builder().method(NatConfig.Method.of(method.method()))
                .description(NodeConfig.DEFAULTS.host().agentVersion()).build();
    }

    /** Sets the addresses, the WebSocket listener and the static peers on {@code host}. */
    void applyTo(HostConfigBuilder host) {
        List<Multiaddr> statics = new ArrayList<>();
        for (String s : staticNodes) {
            statics.add(NodeOptions.option("--staticnode", () -> staticPeer(s)));
        }
        WebSocketConfig webSocket = webSocket();
        List<Multiaddr> announced = new ArrayList<>();
        NatMethod method = NodeOptions.option("--nat", () -> NatMethod.parse(nat));
        if (method.externalIp() != null && !extMultiaddrOnly) {
            // nwaku's NetConfig: the external IP with the bound ports, TCP first, before --ext-multiaddr
            announced.addAll(NodeOptions.option("--nat", () -> method.addresses(shifted(tcpPort), webSocket)));
        }
        for (String s : extMultiaddrs) {
            announced.add(NodeOptions.option("--ext-multiaddr", () -> Multiaddr.parse(s).withoutPeerId()));
        }
        host.listenAddress(new InetSocketAddress(listenAddress, shifted(tcpPort)))
                .announceAddresses(announced)
                .externalAddressesOnly(extMultiaddrOnly)
                .staticPeers(statics)
                .webSocket(webSocket)
                .dns4DomainName(NodeOptions.option("--dns4-domain-name", () -> dns4DomainName == null ? null
                        : HostConfig.builder().dns4DomainName(dns4DomainName).build().dns4DomainName()));
    }

    /** The ENRs among the static nodes, which peer exchange serves. */
    List<Enr> staticRecords() {
        List<Enr> records = new ArrayList<>();
        for (String s : staticNodes) {
            if (s.strip().startsWith(Enr.TEXT_PREFIX)) {
                records.add(NodeOptions.option("--staticnode", () -> Enr.parse(s)));
            }
        }
        return records;
    }

    /**
     * nwaku's WebSocket options: {@code --websocket-secure-support} turns WebSocket on too and needs both files, which
     * are read and checked here, so that a wrong path stops the start naming its flag.
     */
    private WebSocketConfig webSocket() {
        WebSocketConfigBuilder ws = NodeConfig.DEFAULTS.host().webSocket().toBuilder()
                .listen(websocketSupport || websocketSecureSupport)
                .port(NodeOptions.option("--websocket-port", () -> shifted(websocketPort)));
        if (websocketSecureSupport) {
            if (websocketSecureKeyPath == null || websocketSecureCertPath == null) {
                throw new IllegalArgumentException("--websocket-secure-support needs --websocket-secure-key-path and "
                        + "--websocket-secure-cert-path ("
                        + (websocketSecureKeyPath == null ? "no key" : "no certificate") + " given)");
            }
            NodeOptions.option("--websocket-secure-cert-path", () -> PemFiles.certificates(websocketSecureCertPath));
            NodeOptions.option("--websocket-secure-key-path", () -> PemFiles.privateKey(websocketSecureKeyPath));
            NodeOptions.option("--websocket-secure-key-path", () -> PemFiles.serverIdentity(websocketSecureCertPath,
                    websocketSecureKeyPath));
            ws.certPath(websocketSecureCertPath).keyPath(websocketSecureKeyPath);
        }
        return ws.build();
    }

    /** A static node's address: TCP or WebSocket, ending in /p2p/<peer id> (the node must prove it is that peer). */
    static Multiaddr staticPeer(String text) {
        if (text.strip().startsWith(Enr.TEXT_PREFIX)) {
            return staticRecordAddress(Enr.parse(text));
        }
        Multiaddr address = Multiaddr.parse(text);
        if (!(address.isTcp() || address.isWebSocket()) || address.peerId().isEmpty()) {
            throw new IllegalArgumentException("'" + text + "' must be a TCP or WebSocket multiaddr ending in "
                    + "/p2p/<peer id>, e.g. /ip4/127.0.0.1/tcp/60000/p2p/16Uiu2… or "
                    + "/dns4/node.example/tcp/8000/wss/p2p/16Uiu2…");
        }
        return address;
    }

    /** The address a static peer given by its ENR is dialled at: the record's first TCP or WebSocket address. */
    static Multiaddr staticRecordAddress(Enr record) {
        return record.dialAddresses().stream().filter(a -> a.isTcp() || a.isWebSocket()).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("the ENR of " + record.peerId()
                        + " names no TCP or WebSocket address to dial"));
    }
}
