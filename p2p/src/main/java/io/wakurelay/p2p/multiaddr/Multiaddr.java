package io.wakurelay.p2p.multiaddr;

import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.wire.Uvarint;
import java.io.ByteArrayOutputStream;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * A multiaddr (multiformats/multiaddr): a sequence of protocol components, as text ({@code /ip4/1.2.3.4/tcp/60000/
 * p2p/16Uiu2…}) or bytes (varint code, then the value: fixed size, or varint length and bytes). Immutable; equal
 * by bytes; {@link #toString()} is the canonical text (IPv6 compressed, {@code /ipfs/} written {@code /p2p/}, peer
 * ids in base58btc, certificate hashes in base64url).
 */
public final class Multiaddr {

    private static final List<Protocol> HOSTS = List.of(Protocol.IP4, Protocol.IP6, Protocol.DNS, Protocol.DNS4,
            Protocol.DNS6);

    private final byte[] bytes;
    private final List<Component> components;
    private final int[] offsets; // where each component starts in bytes, and bytes.length at the end
    private final PeerId peerId; // of a trailing /p2p component, or null
    private final String text;

    private Multiaddr(byte[] bytes, List<Component> components, int[] offsets, PeerId peerId) {
        this.bytes = bytes;
        this.components = List.copyOf(components);
        this.offsets = offsets;
        this.peerId = peerId;
        StringBuilder builder = new StringBuilder();
        for (Component component : components) {
            builder.append(component);
        }
        this.text = builder.toString();
    }

    /** A multiaddr in text; one trailing '/' is allowed. A {@link MultiaddrFormatException} for anything else. */
    public static Multiaddr parse(String text) {
        if (!text.startsWith("/")) {
            throw new MultiaddrFormatException("a multiaddr starts with '/': '" + text + "'");
        }
        String body = text.endsWith("/") && text.length() > 1 ? text.substring(1, text.length() - 1)
                : text.substring(1);
        if (body.isEmpty()) {
            throw new MultiaddrFormatException("an empty multiaddr");
        }
        String[] parts = body.split("/", -1);
        ByteArrayOutputStream out = new ByteArrayOutputStream(text.length());
        for (int i = 0; i < parts.length; i++) {
            String name = parts[i];
            Protocol protocol = Protocol.forName(name).orElseThrow(() -> new MultiaddrFormatException(
                    "unknown protocol '" + name + "' in '" + text + "'"));
            Uvarint.write(out, protocol.code());
            if (protocol.hasValue()) {
                if (++i == parts.length) {
                    throw new MultiaddrFormatException("/" + protocol.protocolName() + " needs a value in '" + text
                            + "'");
                }
                ValueCodec.writeValue(protocol, ValueCodec.toBytes(protocol, parts[i]), out);
            }
        }
        return fromBytesUnchecked(out.toByteArray());
    }

    /** A multiaddr in binary. A {@link MultiaddrFormatException} for unknown codes, bad values, extra bytes. */
    public static Multiaddr fromBytes(byte[] bytes) {
        return fromBytesUnchecked(bytes.clone());
    }

    private static Multiaddr fromBytesUnchecked(byte[] bytes) {
        if (bytes.length == 0) {
            throw new MultiaddrFormatException("an empty multiaddr");
        }
        List<Component> components = new ArrayList<>();
        List<Integer> starts = new ArrayList<>();
        PeerId peerId = null;
        int[] next = new int[1];
        int position = 0;
        while (position < bytes.length) {
            starts.add(position);
            long code = ValueCodec.readVarint(bytes, position, next);
            Protocol protocol = Protocol.forCode(code).orElseThrow(() -> new MultiaddrFormatException(
                    "unknown protocol code " + code + " at byte " + starts.get(starts.size() - 1)
                    + ": the length of its value is unknown"));
            position = next[0];
            peerId = null;
            if (!protocol.hasValue()) {
                components.add(new Component(protocol, ""));
                continue;
            }
            long length = protocol.sizeBits() == Protocol.VARIABLE ? ValueCodec.readVarint(bytes, position, next)
                    : protocol.sizeBits() / 8;
            position = protocol.sizeBits() == Protocol.VARIABLE ? next[0] : position;
            if (length > bytes.length - position) {
                throw new MultiaddrFormatException("/" + protocol.protocolName() + " value of " + length
                        + " bytes with only " + (bytes.length - position) + " left");
            }
            byte[] value = Arrays.copyOfRange(bytes, position, position + (int) length);
            position += (int) length;
            String valueText = ValueCodec.toText(protocol, value);
            components.add(new Component(protocol, valueText));
            if (protocol == Protocol.P2P) {
                peerId = PeerId.fromBytes(value);
            }
        }
        int[] offsets = new int[starts.size() + 1];
        for (int i = 0; i < starts.size(); i++) {
            offsets[i] = starts.get(i);
        }
        offsets[starts.size()] = bytes.length;
        return new Multiaddr(bytes, components, offsets, peerId);
    }

    /**
     * The multiaddr of a socket address: {@code /ip4} or {@code /ip6} (after {@code /ip6zone} for a scoped
     * address), or {@code /dns} for an unresolved one, then {@code /tcp}.
     */
    public static Multiaddr of(InetSocketAddress address) {
        String port = Integer.toString(address.getPort());
        if (address.isUnresolved()) {
            return parse("/dns/" + address.getHostString() + "/tcp/" + port);
        }
        InetAddress ip = address.getAddress();
        if (ip instanceof Inet4Address) {
            return parse("/ip4/" + IpText.formatIp4(ip.getAddress(), 0) + "/tcp/" + port);
        }
        Inet6Address ip6 = (Inet6Address) ip;
        String zone = ip6.getScopedInterface() != null ? ip6.getScopedInterface().getName()
                : ip6.getScopeId() != 0 ? Integer.toString(ip6.getScopeId()) : null;
        return parse((zone == null ? "" : "/ip6zone/" + zone) + "/ip6/" + IpText.formatIp6(ip6.getAddress())
                + "/tcp/" + port);
    }

    /** The binary form. */
    public byte[] bytes() {
        return bytes.clone();
    }

    /** The components, in order. */
    public List<Component> components() {
        return components;
    }

    /** The peer id of a trailing {@code /p2p} component: whom this address reaches. */
    public Optional<PeerId> peerId() {
        return Optional.ofNullable(peerId);
    }

    /** This address ending in {@code /p2p/<id>}: a trailing {@code /p2p} is replaced, otherwise one appended. */
    public Multiaddr withPeerId(PeerId id) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length + 48);
        out.write(bytes, 0, peerId == null ? bytes.length : offsets[components.size() - 1]);
        Uvarint.write(out, Protocol.P2P.code());
        ValueCodec.writeValue(Protocol.P2P, id.bytes(), out);
        return fromBytesUnchecked(out.toByteArray());
    }

    /** This address without a trailing {@code /p2p} component (itself when it has none). */
    public Multiaddr withoutPeerId() {
        if (peerId == null) {
            return this;
        }
        if (components.size() == 1) {
            throw new MultiaddrFormatException("'" + text + "' is only a peer id: nothing is left without it");
        }
        return fromBytesUnchecked(Arrays.copyOf(bytes, offsets[components.size() - 1]));
    }

    /**
     * Whether this is a plain TCP address we can dial: {@code /ip4}, {@code /ip6}, {@code /dns}, {@code /dns4} or
     * {@code /dns6}, then {@code /tcp}, then at most a {@code /p2p}. ({@code /tcp/…/ws} is a WebSocket address, not
     * this.)
     */
    public boolean isTcp() {
        return hostAndTcp() && transportComponents() == 0;
    }

    /**
     * Whether this is a WebSocket address we can dial: a host and {@code /tcp} as for {@link #isTcp()}, then
     * {@code /ws}, {@code /wss}, {@code /tls/ws} or {@code /tls/sni/<name>/ws}, then at most a {@code /p2p}.
     */
    public boolean isWebSocket() {
        if (!hostAndTcp()) {
            return false;
        }
        int n = transportComponents();
        List<Protocol> rest = components.subList(2, 2 + n).stream().map(Component::protocol).toList();
        return rest.equals(List.of(Protocol.WS)) || rest.equals(List.of(Protocol.WSS))
                || rest.equals(List.of(Protocol.TLS, Protocol.WS))
                || rest.equals(List.of(Protocol.TLS, Protocol.SNI, Protocol.WS));
    }

    /** Whether this is a {@link #isWebSocket() WebSocket address} over TLS: {@code /wss} or {@code /tls/…/ws}. */
    public boolean isSecureWebSocket() {
        Protocol third = isWebSocket() ? components.get(2).protocol() : null;
        return third == Protocol.WSS || third == Protocol.TLS;
    }

    /** The TLS server name of a secure WebSocket address: its {@code /sni} value, else its DNS name. */
    public Optional<String> tlsServerName() {
        for (Component c : components) {
            if (c.protocol() == Protocol.SNI) {
                return Optional.of(c.value());
            }
        }
        return dnsHost();
    }

    private boolean hostAndTcp() {
        return components.size() >= 2 && HOSTS.contains(components.get(0).protocol())
                && components.get(1).protocol() == Protocol.TCP;
    }

    /** The components after host and port, without a trailing {@code /p2p}. */
    private int transportComponents() {
        return components.size() - 2 - (peerId != null ? 1 : 0);
    }

    /** This address with {@code suffix} (text, e.g. {@code /ws}) appended. */
    public Multiaddr encapsulate(String suffix) {
        return parse(text + suffix);
    }

    /**
     * The socket address of a {@link #isTcp() TCP} or {@link #isWebSocket() WebSocket} address (its host and port); a
     * DNS name is left unresolved (the caller resolves it, asynchronously). An {@link IllegalStateException} for any
     * other address.
     */
    public InetSocketAddress toSocketAddress() {
        if (!isTcp() && !isWebSocket()) {
            throw new IllegalStateException("'" + text + "' is not a TCP or WebSocket address");
        }
        Component host = components.get(0);
        int port = Integer.parseInt(components.get(1).value());
        if (host.protocol() == Protocol.IP4 || host.protocol() == Protocol.IP6) {
            try {
                byte[] address = Arrays.copyOfRange(bytes, offsets[0] + 1, offsets[1]); // ip4 and ip6 codes: 1 byte
                return new InetSocketAddress(InetAddress.getByAddress(address), port);
            } catch (UnknownHostException e) {
                throw new IllegalStateException("cannot happen: 4 or 16 address bytes", e);
            }
        }
        return InetSocketAddress.createUnresolved(host.value(), port);
    }

    /** The name of a leading {@code /dns}, {@code /dns4} or {@code /dns6} component. */
    public Optional<String> dnsHost() {
        Protocol first = components.get(0).protocol();
        return first == Protocol.DNS || first == Protocol.DNS4 || first == Protocol.DNS6
                ? Optional.of(components.get(0).value()) : Optional.empty();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Multiaddr address && Arrays.equals(address.bytes, bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        return text;
    }
}
